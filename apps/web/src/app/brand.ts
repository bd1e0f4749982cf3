import type { Brand } from '@fleetgate/shared/schemas/brand';
import { api } from '../lib/http/client';

/** The brand of this console (product §1); the default brand when it cannot be read. */
export async function loadBrand(): Promise<Brand> {
  // The schema brings zod, which the sign-in page does without: it comes with the brand.
  const { brandSchema, DEFAULT_BRAND } = await import('@fleetgate/shared/schemas/brand');
  try {
    const response = await api.get<unknown>('/brand', { noRefresh: true });
    const parsed = brandSchema.safeParse(response.data);
    return parsed.success ? parsed.data : DEFAULT_BRAND;
  } catch {
    return DEFAULT_BRAND;
  }
}
