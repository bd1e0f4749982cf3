import { okBody } from '@fleetgate/shared/schemas/api';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import {
  storageCreateBodySchema,
  storageKeySchema,
  storageRecordSchema,
  storageSavedSchema,
  storageUpdateBodySchema,
} from '@fleetgate/shared/schemas/storage';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceContext } from '../service-context';
import { storageService } from './storage.service';

const keyParams = z.object({ key: storageKeySchema });
const saved = okBody(storageSavedSchema);

/** Per-user storage of product §7 Storage: the signed-in user's own records only. */
export async function storageRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { authenticated: true } as const;

  const ctx = (request: FastifyRequest) => serviceContext(app, request);

  r.get(
    '/api/storage',
    {
      config: { access },
      schema: {
        tags: ['storage'],
        summary: "The user's stored records",
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(storageRecordSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await storageService.page(
        ctx(request),
        request.query.limit,
        request.query.offset,
      );
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.post(
    '/api/storage',
    {
      config: { access },
      schema: {
        tags: ['storage'],
        summary: 'Store a new record',
        body: storageCreateBodySchema,
        response: { 200: saved },
      },
    },
    async (request) => {
      await storageService.save(ctx(request), request.body.key, request.body.value);
      return { success: true as const, data: { key: request.body.key } };
    },
  );

  r.put(
    '/api/storage/:key',
    {
      config: { access },
      schema: {
        tags: ['storage'],
        summary: 'Replace a record',
        params: keyParams,
        body: storageUpdateBodySchema,
        response: { 200: saved },
      },
    },
    async (request) => {
      await storageService.save(ctx(request), request.params.key, request.body.value);
      return { success: true as const, data: { key: request.params.key } };
    },
  );

  r.delete(
    '/api/storage/:key',
    {
      config: { access },
      schema: { tags: ['storage'], summary: 'Remove a record', params: keyParams, response: { 200: saved } },
    },
    async (request) => {
      await storageService.remove(ctx(request), request.params.key);
      return { success: true as const, data: { key: request.params.key } };
    },
  );
}
