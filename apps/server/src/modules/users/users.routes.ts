import { emailResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  adminUserEmailBodySchema,
  editUserRoleBodySchema,
  moveUsersBodySchema,
  userListQuerySchema,
  userMoveLogSchema,
  userRowSchema,
  usersMovedSchema,
} from '@fleetgate/shared/schemas/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickFields } from '#src/http/list-query';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { usersService } from './users.service';

/** Users the caller reaches (product §2 users.table, §7 selector lists and search). */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // While impersonating, the changes below ran the step-up first (modules/auth/sensitive-actions.ts).
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const manageUsers = { access: { permission: 'manage_users' as const } };
  const superAdmin = { access: { permission: 'super_admin' as const } };

  r.get(
    '/api/users',
    {
      config: { access: { permission: 'view_users' } },
      schema: {
        tags: ['users'],
        summary: 'Users of the companies the caller reaches',
        querystring: userListQuerySchema,
        response: { 200: okBody(z.array(userRowSchema.partial())) },
      },
    },
    async (request) => {
      const { company_id, ...query } = request.query;
      const { rows, total, fields } = await usersService.list(ctx(request), query, { companyId: company_id });
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
        response: { 200: okBody(userRowSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await usersService.get(ctx(request), request.params.id),
    }),
  );

  r.get(
    '/api/users/move-logs',
    {
      config: { access: { permission: 'view_user_move_logs' } },
      schema: {
        tags: ['users'],
        summary: 'Users moved between companies in reach (product §2 users.move-logs)',
        querystring: userListQuerySchema,
        response: { 200: okBody(z.array(userMoveLogSchema)) },
      },
    },
    async (request) => {
      const { company_id, ...query } = request.query;
      const { rows, total } = await usersService.moveLogs(
        ctx(request),
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
        summary: "Change a user's role (product §2 'edit user role')",
        params: idParams,
        body: editUserRoleBodySchema,
        response: { 200: okBody(userRowSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await usersService.changeRole(ctx(request), request.params.id, request.body.role_id),
      message: 'User role updated successfully',
    }),
  );

  r.post(
    '/api/users/move',
    {
      config: manageUsers,
      schema: {
        tags: ['users'],
        summary: "Move users to another company (product §2 'move users')",
        body: moveUsersBodySchema,
        response: { 200: okBody(usersMovedSchema) },
      },
    },
    async (request) => {
      const result = await usersService.move(ctx(request), request.body.user_ids, request.body.company_id);
      return {
        success: true as const,
        data: result,
        message: result.moved === 1 ? 'User moved successfully' : `${result.moved} users moved successfully`,
      };
    },
  );

  // The admin-only forms of product §3 (§6 'Admin-only forms').
  const emailOnly = {
    body: adminUserEmailBodySchema,
    response: { 200: okBody(emailResultSchema) },
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
      await usersService.removeMfa(ctx(request), request.body.email);
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
      await usersService.remove(ctx(request), request.body.email);
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
      await usersService.makeSsoAdmin(ctx(request), request.body.email);
      return {
        success: true as const,
        data: { email: request.body.email },
        message: 'SSO administrator assigned successfully',
      };
    },
  );
}
