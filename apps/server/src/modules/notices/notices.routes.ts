import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  adminNoticeListQuerySchema,
  adminNoticeSchema,
  noticeCreateBodySchema,
  noticeDisableBodySchema,
  noticeEnableBodySchema,
  noticeSchema,
  noticeUpdateBodySchema,
} from '@fleetgate/shared/schemas/notices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { noticesService } from './notices.service';

const admin = { permission: 'admin_view_notice' } as const;
const tags = ['notices'];

/**
 * Global notices (product §2 header widget 2, §3, §4): every signed-in user reads the
 * enabled ones; holders of admin_view_notice manage them (route notices.global).
 */
export async function noticesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/notices',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Enabled notices, newest first',
        response: { 200: okBody(z.array(noticeSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.active(serviceContext(app, request)),
    }),
  );

  r.get(
    '/api/admin/notices',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Every notice, also disabled and scheduled ones',
        querystring: adminNoticeListQuerySchema,
        response: { 200: okBody(z.array(adminNoticeSchema)) },
      },
    },
    async (request) => {
      const { status, type, ...query } = request.query;
      const { data, total } = await noticesService.list(serviceContext(app, request), query, {
        status,
        type,
      });
      return { success: true as const, data, meta: { total } };
    },
  );

  r.get(
    '/api/admin/notices/:id',
    {
      config: { access: admin },
      schema: { tags, summary: 'One notice', params: idParams, response: { 200: okBody(adminNoticeSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.get(serviceContext(app, request), request.params.id),
    }),
  );

  r.post(
    '/api/admin/notices',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Create a notice (disabled unless enabled_at is given)',
        body: noticeCreateBodySchema,
        response: { 200: okBody(adminNoticeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.create(serviceContext(app, request), request.body),
      message: 'Notice created successfully',
    }),
  );

  r.put(
    '/api/admin/notices/:id',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Change a notice',
        params: idParams,
        body: noticeUpdateBodySchema,
        response: { 200: okBody(adminNoticeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.update(serviceContext(app, request), request.params.id, request.body),
      message: 'Notice updated successfully',
    }),
  );

  r.post(
    '/api/admin/notices/:id/enable',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Show a notice from a time on (now when none is given)',
        params: idParams,
        body: noticeEnableBodySchema,
        response: { 200: okBody(adminNoticeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.enable(
        serviceContext(app, request),
        request.params.id,
        request.body.enabled_at ?? undefined,
      ),
      message: 'Notice enabled successfully',
    }),
  );

  r.post(
    '/api/admin/notices/:id/disable',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Stop showing a notice',
        params: idParams,
        body: noticeDisableBodySchema,
        response: { 200: okBody(adminNoticeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.disable(serviceContext(app, request), request.params.id),
      message: 'Notice disabled successfully',
    }),
  );

  r.delete(
    '/api/admin/notices/:id',
    {
      config: { access: admin },
      schema: {
        tags,
        summary: 'Delete a notice',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await noticesService.remove(serviceContext(app, request), request.params.id),
      message: 'Notice removed successfully',
    }),
  );
}
