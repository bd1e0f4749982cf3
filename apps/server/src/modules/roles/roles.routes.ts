import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  roleBodySchema,
  roleListQuerySchema,
  roleSchema,
  roleUpdateBodySchema,
  roleWithPermissionsSchema,
} from '@fleetgate/shared/schemas/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { presentRole, presentRoleWithPermissions } from './roles.presenter';
import { rolesService } from './roles.service';

/** Roles (product §2 users.roles, §3 Role, §7 GET /roles with limit 100 and optional company_id). */
export async function rolesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const manage = { access: { permission: 'manage_roles' as const } };

  r.get(
    '/api/roles',
    {
      // The invite form lists roles for whoever may invite; the roles page needs view_roles.
      config: { access: { permission: ['view_roles', 'manage_users'] } },
      schema: {
        tags: ['roles'],
        summary: 'Default roles and the custom roles of companies in reach',
        querystring: roleListQuerySchema,
        response: { 200: okBody(z.array(roleSchema)) },
      },
    },
    async (request) => {
      const { company_id, type, limit, offset } = request.query;
      const { rows, total } = await rolesService.list(ctx(request), {
        companyId: company_id,
        type,
        limit,
        offset,
      });
      return { success: true as const, data: rows.map(presentRole), meta: { total } };
    },
  );

  r.get(
    '/api/roles/:id',
    {
      config: { access: { permission: ['view_roles', 'view_permissions'] } },
      schema: {
        tags: ['roles'],
        summary: 'A role with its permissions',
        params: idParams,
        response: { 200: okBody(roleWithPermissionsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentRoleWithPermissions(await rolesService.get(ctx(request), request.params.id)),
    }),
  );

  r.post(
    '/api/roles',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Create a custom role',
        body: roleBodySchema,
        response: { 200: okBody(roleWithPermissionsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentRoleWithPermissions(await rolesService.create(ctx(request), request.body)),
      message: 'Role created successfully',
    }),
  );

  r.put(
    '/api/roles/:id',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Change a custom role',
        params: idParams,
        body: roleUpdateBodySchema,
        response: { 200: okBody(roleWithPermissionsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentRoleWithPermissions(
        await rolesService.update(ctx(request), request.params.id, request.body),
      ),
      message: 'Role updated successfully',
    }),
  );

  r.delete(
    '/api/roles/:id',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Remove a custom role nobody holds',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await rolesService.remove(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Role removed successfully',
      };
    },
  );
}
