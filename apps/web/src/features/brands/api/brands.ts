import type { Json } from '@fleetgate/shared/schemas/api';
import type { BrandImageKind, BrandInput, BrandRecord } from '@fleetgate/shared/schemas/brand';
import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

export type BrandRecordJson = Json<BrandRecord>;

/** Query keys (CONVENTIONS example 9): every brand change invalidates `brandKeys.all`. */
export const brandKeys = { all: ['brands'] as const };

/** Every brand, the default first (GET /brands, super admin). */
export function useBrands() {
  return useQuery({
    queryKey: brandKeys.all,
    queryFn: async () => (await api.get<BrandRecordJson[]>('/brands')).data,
  });
}

export const brandActions = {
  create: (body: BrandInput) => api.post<BrandRecordJson>('/brands', body),
  update: (id: number, body: BrandInput) => api.put<BrandRecordJson>(`/brands/${id}`, body),
  remove: (id: number) => api.delete<unknown>(`/brands/${id}`),
  /**
   * The favicon, the vector logo, or the picture of a branded model (`model`, its vendor
   * model); the server cleans an SVG before it keeps it.
   */
  upload: (id: number, kind: BrandImageKind, file: File, model?: string) => {
    const formData = new FormData();
    formData.append('file', file);
    return api.post<BrandRecordJson>(`/brands/${id}/images/${kind}`, undefined, {
      formData,
      ...(model ? { query: { model } } : {}),
    });
  },
};
