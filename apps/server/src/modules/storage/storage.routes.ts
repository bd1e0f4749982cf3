import { okBody } from '@fleetgate/shared/schemas/api';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import {
  STORAGE_MAX_KEYS,
  storageCreateBodySchema,
  storageKeySchema,
  storageRecordSchema,
  storageUpdateBodySchema,
} from '@fleetgate/shared/schemas/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { storageRepository } from './storage.repository';

const keyParams = z.object({ key: storageKeySchema });
const saved = okBody(z.object({ key: z.string() }));

/** Per-user storage of spec §7 Storage: the signed-in user's own records only. */
export async function storageRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { authenticated: true } as const;

  async function save(userId: number, key: string, value: unknown) {
    if (
      !(await storageRepository.exists(app.db, userId, key)) &&
      (await storageRepository.count(app.db, userId)) >= STORAGE_MAX_KEYS
    ) {
      throw AppError.of(409, 'CONFLICT', `At most ${STORAGE_MAX_KEYS} records may be stored`, 'key');
    }
    await storageRepository.upsert(app.db, userId, key, value);
  }

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
      const { rows, total } = await storageRepository.page(
        app.db,
        requireAuth(request).principal.id,
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
      await save(requireAuth(request).principal.id, request.body.key, request.body.value);
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
      await save(requireAuth(request).principal.id, request.params.key, request.body.value);
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
      if (!(await storageRepository.remove(app.db, requireAuth(request).principal.id, request.params.key)))
        throw notFound('Record');
      return { success: true as const, data: { key: request.params.key } };
    },
  );
}
