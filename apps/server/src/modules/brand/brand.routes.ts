import { okBody } from '@fleetgate/shared/schemas/api';
import { brandSchema } from '@fleetgate/shared/schemas/brand';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicContext, serviceContext } from '../service-context';
import { brandService } from './brand.service';

/** Brand settings of product §1: read by everyone (the sign-in page is branded too), changed by the super admin. */
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
    async (request) => ({
      success: true as const,
      data: await brandService.get(publicContext(app, request)),
    }),
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
      const brand = await brandService.update(serviceContext(app, request), request.body);
      return { success: true as const, data: brand, message: 'Brand updated successfully' };
    },
  );
}
