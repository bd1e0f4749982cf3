import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  deviceTagsBodySchema,
  deviceTagsResultSchema,
  editTagBodySchema,
  newTagBodySchema,
  tagChartSchema,
  tagListQuerySchema,
  tagSchema,
} from '@fleetgate/shared/schemas/tags';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickFields } from '#src/http/list-query';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { tagsService } from './tags.service';

/** Tags (product §2 tags.main, management.tag_chart, company.tags; §3 Tag, newTag; §7 /tags). */
export async function tagsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const view = { access: { permission: 'view_tags' as const } };
  const manage = { access: { permission: 'manage_tags' as const } };

  r.get(
    '/api/tags',
    {
      config: view,
      schema: {
        tags: ['tags'],
        summary: 'Tags of the companies the caller reaches, with their device counts',
        querystring: tagListQuerySchema,
        response: { 200: okBody(z.array(tagSchema.partial())) },
      },
    },
    async (request) => {
      const { company_id, ...query } = request.query;
      const { rows, total, fields } = await tagsService.list(ctx(request), query, { companyId: company_id });
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/tags/:id',
    {
      config: view,
      schema: { tags: ['tags'], summary: 'One tag', params: idParams, response: { 200: okBody(tagSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await tagsService.get(ctx(request), request.params.id),
    }),
  );

  r.get(
    '/api/tags/:id/chart',
    {
      config: view,
      schema: {
        tags: ['tags'],
        summary: 'The tag’s devices counted by status (product §4) and by model',
        params: idParams,
        response: { 200: okBody(tagChartSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await tagsService.chart(ctx(request), request.params.id),
    }),
  );

  r.post(
    '/api/tags',
    {
      config: manage,
      schema: {
        tags: ['tags'],
        summary: 'Create a tag (product §3 newTag)',
        body: newTagBodySchema,
        response: { 200: okBody(tagSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await tagsService.create(ctx(request), request.body),
      message: 'Tag created successfully',
    }),
  );

  r.put(
    '/api/tags/:id',
    {
      config: manage,
      schema: {
        tags: ['tags'],
        summary: 'Change a tag’s name, description or colour',
        params: idParams,
        body: editTagBodySchema,
        response: { 200: okBody(tagSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await tagsService.update(ctx(request), request.params.id, request.body),
      message: 'Tag updated successfully',
    }),
  );

  r.delete(
    '/api/tags/:id',
    {
      config: manage,
      schema: {
        tags: ['tags'],
        summary: 'Delete a tag (it leaves every device it was on)',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await tagsService.remove(ctx(request), request.params.id);
      return { success: true as const, data: { id: request.params.id }, message: 'Tag removed successfully' };
    },
  );

  r.post(
    '/api/devices/tags',
    {
      config: manage,
      schema: {
        tags: ['tags'],
        summary: 'Add a tag to devices or remove it (product §2 manage tags, §7 bulk body)',
        body: deviceTagsBodySchema,
        response: { 200: okBody(deviceTagsResultSchema) },
      },
    },
    async (request) => {
      const result = await tagsService.setOnDevices(ctx(request), request.body);
      return {
        success: true as const,
        data: result,
        message:
          result.action === 'add'
            ? 'Tag added to devices successfully'
            : 'Tag removed from devices successfully',
      };
    },
  );
}
