import { okBody } from '@fleetgate/shared/schemas/api';
import { type Brand, brandSchema, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/access';
import { audited, auditIdentity } from '../audit/audit.service';
import { settingsRepository } from '../settings/settings.repository';

const KEY = 'brand';

/** The saved brand over the defaults; a stored value that no longer parses falls back to them. */
async function loadBrand(app: FastifyInstance): Promise<Brand> {
  const parsed = brandSchema.safeParse((await settingsRepository.get(app.db, KEY)) ?? {});
  return parsed.success ? parsed.data : DEFAULT_BRAND;
}

/** Brand settings of spec §1: read by everyone (the sign-in page is branded too), changed by the super admin. */
export async function brandRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/brand',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['brand'],
        summary: 'The brand of this console',
        response: { 200: okBody(brandSchema) },
      },
    },
    async () => ({ success: true as const, data: await loadBrand(app) }),
  );

  r.put(
    '/api/brand',
    {
      config: { access: { permission: 'super_admin' } },
      schema: {
        tags: ['brand'],
        summary: 'Change the brand',
        body: brandSchema,
        response: { 200: okBody(brandSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await audited(
        app.db,
        (tx) => settingsRepository.put(tx, KEY, request.body),
        () => ({ action: 'brand.update', ...auditIdentity(auth), ip: request.ip }),
      );
      return { success: true as const, data: request.body, message: 'Brand updated successfully' };
    },
  );
}
