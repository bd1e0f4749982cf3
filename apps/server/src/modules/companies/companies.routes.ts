import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  companyFlagsBodySchema,
  companyFlagsSchema,
  companyListQuerySchema,
  companyMovedSchema,
  companyPlaceSchema,
  companySchema,
  companyTreeBodySchema,
  editCompanyBodySchema,
  moveCompanyBodySchema,
  newCompanyBodySchema,
} from '@fleetgate/shared/schemas/companies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickFields } from '#src/http/list-query';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { presentCompanyPlace, presentTree } from './companies.presenter';
import { companiesService } from './companies.service';

/** Companies the caller reaches (product §2 users.companies, §3 Company, §7 selector lists and search). */
export async function companiesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);

  r.get(
    '/api/companies',
    {
      config: { access: { permission: 'view_companies' } },
      schema: {
        tags: ['companies'],
        summary: 'Companies in the caller’s subtree',
        querystring: companyListQuerySchema,
        response: { 200: okBody(z.array(companySchema.partial())) },
      },
    },
    async (request) => {
      const { level, parent_id, ...query } = request.query;
      const { rows, total, fields } = await companiesService.list(ctx(request), query, {
        level,
        parentId: parent_id,
      });
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/companies/tree',
    {
      config: { access: { permission: 'view_companies' } },
      schema: {
        tags: ['companies'],
        summary: 'The caller’s subtree as nested nodes (product §2 company.tree), bounded',
        response: { 200: companyTreeBodySchema },
      },
    },
    async (request) => {
      const { rows, truncated } = await companiesService.tree(ctx(request));
      return { success: true as const, data: presentTree(rows), meta: { truncated } };
    },
  );

  r.get(
    '/api/companies/:id',
    {
      config: { access: { permission: 'view_companies' } },
      schema: {
        tags: ['companies'],
        summary: 'One company',
        params: idParams,
        response: { 200: okBody(companySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await companiesService.get(ctx(request), request.params.id),
    }),
  );

  const manage = { access: { permission: 'manage_companies' as const } };
  const created = okBody(companyPlaceSchema);

  r.post(
    '/api/companies',
    {
      config: manage,
      schema: {
        tags: ['companies'],
        summary: 'Create a company under a parent',
        body: newCompanyBodySchema,
        response: { 200: created },
      },
    },
    async (request) => {
      const company = await companiesService.create(ctx(request), request.body);
      return {
        success: true as const,
        data: presentCompanyPlace(company),
        message: 'Company created successfully',
      };
    },
  );

  r.put(
    '/api/companies/:id',
    {
      config: manage,
      schema: {
        tags: ['companies'],
        summary: 'Rename a company',
        params: idParams,
        body: editCompanyBodySchema,
        response: { 200: created },
      },
    },
    async (request) => {
      const company = await companiesService.rename(ctx(request), request.params.id, request.body.name);
      return {
        success: true as const,
        data: presentCompanyPlace(company),
        message: 'Company updated successfully',
      };
    },
  );

  r.put(
    '/api/companies/:id/flags',
    {
      config: manage,
      schema: {
        tags: ['companies'],
        summary: 'Set a subsidiary’s flags (product §2 manage company flags)',
        params: idParams,
        body: companyFlagsBodySchema,
        response: { 200: okBody(companyFlagsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await companiesService.setFlags(ctx(request), request.params.id, request.body),
      message: 'Company flags updated successfully',
    }),
  );

  r.post(
    '/api/companies/move',
    {
      config: manage,
      schema: {
        tags: ['companies'],
        summary: 'Move a company and its subsidiaries under another parent',
        body: moveCompanyBodySchema,
        response: { 200: okBody(companyMovedSchema) },
      },
    },
    async (request) => {
      const moved = await companiesService.move(ctx(request), request.body.source, request.body.target);
      return { success: true as const, data: moved, message: 'Company moved successfully' };
    },
  );

  r.delete(
    '/api/companies/:id',
    {
      config: manage,
      schema: {
        tags: ['companies'],
        summary: 'Delete an empty company',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await companiesService.remove(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Company removed successfully',
      };
    },
  );
}
