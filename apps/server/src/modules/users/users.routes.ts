import { okBody } from '@fleetgate/shared/schemas/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { listQuerySchema, pickFields } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { scopeOf } from '../policy/scope';
import { usersRepository } from './users.repository';

const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  role_id: z.number().int(),
  role_name: z.string(),
  role_title: z.string(),
  mfa_type: z.string().nullable(),
  last_login_at: z.date().nullable(),
  created_at: z.date(),
});

/** Users the caller reaches (spec §2 users.table, §7 selector lists and search). */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/users',
    {
      config: { access: { permission: 'view_users' } },
      schema: {
        tags: ['users'],
        summary: 'Users of the companies the caller reaches',
        querystring: listQuerySchema.extend({ company_id: z.coerce.number().int().min(1).optional() }),
        response: { 200: okBody(z.array(userSchema.partial())) },
      },
    },
    async (request) => {
      const { company_id, ...query } = request.query;
      const { rows, total, fields } = await usersRepository.list(
        app.db,
        scopeOf(requireAuth(request)),
        query,
        {
          companyId: company_id,
        },
      );
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/users/:id',
    {
      config: { access: { permission: 'view_users' } },
      schema: {
        tags: ['users'],
        summary: 'One user',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        response: { 200: okBody(userSchema) },
      },
    },
    async (request) => {
      const user = await usersRepository.find(app.db, scopeOf(requireAuth(request)), request.params.id);
      if (!user) throw notFound('User');
      return { success: true as const, data: user };
    },
  );
}
