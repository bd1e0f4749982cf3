import { okBody } from '@fleetgate/shared/schemas/api';
import {
  adminUserEmailBodySchema,
  editUserRoleBodySchema,
  moveUsersBodySchema,
  userMoveLogSchema,
  userRowSchema,
} from '@fleetgate/shared/schemas/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { listQuerySchema, pickFields } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { scopeOf } from '../policy/scope';
import { usersRepository } from './users.repository';
import { usersService } from './users.service';

const userSchema = userRowSchema;
const idParams = z.object({ id: z.coerce.number().int().min(1) });

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
        params: idParams,
        response: { 200: okBody(userSchema) },
      },
    },
    async (request) => {
      const user = await usersRepository.find(app.db, scopeOf(requireAuth(request)), request.params.id);
      if (!user) throw notFound('User');
      return { success: true as const, data: user };
    },
  );

  /** A change's context; while impersonating, the step-up (modules/auth/sensitive-actions.ts) ran first. */
  const sensitive = (request: FastifyRequest) => ({
    db: app.db,
    auth: requireAuth(request),
    ip: request.ip,
  });
  const manageUsers = { access: { permission: 'manage_users' as const } };
  const superAdmin = { access: { permission: 'super_admin' as const } };

  r.get(
    '/api/users/move-logs',
    {
      config: { access: { permission: 'view_user_move_logs' } },
      schema: {
        tags: ['users'],
        summary: 'Users moved between companies in reach (spec §2 users.move-logs)',
        querystring: listQuerySchema.extend({ company_id: z.coerce.number().int().min(1).optional() }),
        response: { 200: okBody(z.array(userMoveLogSchema)) },
      },
    },
    async (request) => {
      const { company_id, ...query } = request.query;
      const { rows, total } = await usersService.moveLogs(
        { db: app.db, auth: requireAuth(request) },
        query,
        company_id ? { companyId: company_id } : {},
      );
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.put(
    '/api/users/:id/role',
    {
      config: manageUsers,
      schema: {
        tags: ['users'],
        summary: "Change a user's role (spec §2 'edit user role')",
        params: idParams,
        body: editUserRoleBodySchema,
        response: { 200: okBody(userSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await usersService.changeRole(sensitive(request), request.params.id, request.body.role_id),
      message: 'User role updated successfully',
    }),
  );

  r.post(
    '/api/users/move',
    {
      config: manageUsers,
      schema: {
        tags: ['users'],
        summary: "Move users to another company (spec §2 'move users')",
        body: moveUsersBodySchema,
        response: { 200: okBody(z.object({ moved: z.number().int(), company_id: z.number().int() })) },
      },
    },
    async (request) => {
      const result = await usersService.move(
        sensitive(request),
        request.body.user_ids,
        request.body.company_id,
      );
      return {
        success: true as const,
        data: result,
        message: result.moved === 1 ? 'User moved successfully' : `${result.moved} users moved successfully`,
      };
    },
  );

  // The admin-only forms of spec §3 (§6 'Admin-only forms').
  const emailOnly = {
    body: adminUserEmailBodySchema,
    response: { 200: okBody(z.object({ email: z.string() })) },
  };

  r.delete(
    '/api/admin/users/mfa',
    {
      config: superAdmin,
      schema: {
        tags: ['users'],
        summary: "Remove a user's two-step verification (removeUserMfa)",
        ...emailOnly,
      },
    },
    async (request) => {
      await usersService.removeMfa(sensitive(request), request.body.email);
      return {
        success: true as const,
        data: { email: request.body.email },
        message: 'Two-step verification removed successfully',
      };
    },
  );

  r.delete(
    '/api/admin/users',
    {
      config: superAdmin,
      schema: { tags: ['users'], summary: 'Delete a user (deleteUser)', ...emailOnly },
    },
    async (request) => {
      await usersService.remove(sensitive(request), request.body.email);
      return {
        success: true as const,
        data: { email: request.body.email },
        message: 'User removed successfully',
      };
    },
  );

  r.post(
    '/api/admin/users/sso',
    {
      config: superAdmin,
      schema: { tags: ['users'], summary: 'Make a user an SSO administrator (makeSSOAdmin)', ...emailOnly },
    },
    async (request) => {
      await usersService.makeSsoAdmin(sensitive(request), request.body.email);
      return {
        success: true as const,
        data: { email: request.body.email },
        message: 'SSO administrator assigned successfully',
      };
    },
  );
}
