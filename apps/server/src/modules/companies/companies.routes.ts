import { okBody } from '@fleetgate/shared/schemas/api';
import { commaIntList } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { listQuerySchema, pickFields } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { scopeOf } from '../policy/scope';
import { companiesRepository } from './companies.repository';

const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int().nullable(),
  parent_name: z.string().nullable(),
  level: z.number().int(),
  created_at: z.date(),
  users_count: z.number().int(),
});

const listQuery = listQuerySchema.extend({
  level: commaIntList.optional(),
  parent_id: z.coerce.number().int().min(1).optional(),
});

/** Companies the caller reaches (spec §2 users.companies, §3 Company, §7 selector lists and search). */
export async function companiesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/companies',
    {
      config: { access: { permission: 'view_companies' } },
      schema: {
        tags: ['companies'],
        summary: 'Companies in the caller’s subtree',
        querystring: listQuery,
        response: { 200: okBody(z.array(companySchema.partial())) },
      },
    },
    async (request) => {
      const { level, parent_id, ...query } = request.query;
      const { rows, total, fields } = await companiesRepository.list(
        app.db,
        scopeOf(requireAuth(request)),
        query,
        {
          level,
          parentId: parent_id,
        },
      );
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/companies/:id',
    {
      config: { access: { permission: 'view_companies' } },
      schema: {
        tags: ['companies'],
        summary: 'One company',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        response: { 200: okBody(companySchema) },
      },
    },
    async (request) => {
      const company = await companiesRepository.find(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.id,
      );
      if (!company) throw notFound('Company');
      return { success: true as const, data: company };
    },
  );
}
