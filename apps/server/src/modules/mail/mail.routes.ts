import { emailResultSchema, noDataSchema, okBody } from '@fleetgate/shared/schemas/api';
import { listQuerySchema } from '@fleetgate/shared/schemas/list';
import {
  emailConfigurationSchema,
  mailLogListQuerySchema,
  mailLogRowSchema,
  mailMessageSchema,
  smtpConfigBodySchema,
  smtpConfigSchema,
  smtpTestBodySchema,
  smtpTestResultSchema,
  suppressBodySchema,
  suppressedEmailParamsSchema,
  suppressedEmailSchema,
} from '@fleetgate/shared/schemas/mail';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { mailAdminService } from './mail-admin.service';

const superAdmin = { access: { permission: 'super_admin' as const } };

/**
 * The SMTP configuration (product §2 email-smtp, 'SMTP configuration' dialog), the mail log
 * (product §2 mail.logs) and the suppression list (product §3 removeFromSuppresionList).
 */
export async function mailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);

  r.get(
    '/api/email-smtp',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'The SMTP configuration (never the password: `password_set`)',
        response: { 200: okBody(smtpConfigSchema.nullable()) },
      },
    },
    async (request) => ({ success: true as const, data: await mailAdminService.smtp(ctx(request)) }),
  );

  r.put(
    '/api/email-smtp',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Save the SMTP configuration; an empty password keeps the stored one',
        body: smtpConfigBodySchema,
        response: { 200: okBody(smtpConfigSchema) },
      },
    },
    async (request) => {
      const saved = await mailAdminService.saveSmtp(ctx(request), request.body);
      return { success: true as const, data: saved, message: 'SMTP configuration updated successfully' };
    },
  );

  r.delete(
    '/api/email-smtp',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Remove the SMTP configuration: messages are logged and marked unsent',
        response: { 200: okBody(noDataSchema) },
      },
    },
    async (request) => {
      await mailAdminService.removeSmtp(ctx(request));
      return { success: true as const, data: null, message: 'SMTP configuration removed successfully' };
    },
  );

  r.post(
    '/api/email-smtp/test',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Send a test message through the saved configuration',
        body: smtpTestBodySchema,
        response: { 200: okBody(smtpTestResultSchema) },
      },
    },
    async (request) => {
      const result = await mailAdminService.test(ctx(request), request.body.to);
      return {
        success: true as const,
        data: { id: result.id, status: result.status },
        message: `Test message sent to ${request.body.to}`,
      };
    },
  );

  r.get(
    '/api/email-configurations',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Selector list of e-mail configurations (product §7): the one SMTP configuration',
        querystring: listQuerySchema,
        response: { 200: okBody(z.array(emailConfigurationSchema)) },
      },
    },
    async (request) => {
      const data = await mailAdminService.configurations(ctx(request));
      return { success: true as const, data, meta: { total: data.length } };
    },
  );

  r.get(
    '/api/mail-logs',
    {
      config: { access: { permission: 'view_mail_logs' } },
      schema: {
        tags: ['mail'],
        summary: 'The mail log, newest first',
        querystring: mailLogListQuerySchema,
        response: { 200: okBody(z.array(mailLogRowSchema)) },
      },
    },
    async (request) => {
      const { status, company_id, ...query } = request.query;
      const { rows, total } = await mailAdminService.logs(ctx(request), query, {
        ...(status ? { status } : {}),
        ...(company_id ? { companyId: company_id } : {}),
      });
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/mail-logs/:id',
    {
      // The text holds invitation links: only the super admin reads it.
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'One message with its text',
        params: idParams,
        response: { 200: okBody(mailMessageSchema) },
      },
    },
    async (request) => {
      return {
        success: true as const,
        data: await mailAdminService.message(ctx(request), request.params.id),
      };
    },
  );

  r.get(
    '/api/suppressed-emails',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Addresses nothing is sent to',
        querystring: listQuerySchema,
        response: { 200: okBody(z.array(suppressedEmailSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await mailAdminService.suppressed(ctx(request), request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.post(
    '/api/suppressed-emails',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Stop sending to an address',
        body: suppressBodySchema,
        response: { 200: okBody(emailResultSchema) },
      },
    },
    async (request) => {
      const { email, reason } = request.body;
      await mailAdminService.suppress(ctx(request), email, reason);
      return {
        success: true as const,
        data: { email },
        message: 'Address added to the suppression list successfully',
      };
    },
  );

  r.delete(
    '/api/suppressed-emails/:email',
    {
      config: superAdmin,
      schema: {
        tags: ['mail'],
        summary: 'Remove an address from the suppression list (product §3 removeFromSuppresionList)',
        params: suppressedEmailParamsSchema,
        response: { 200: okBody(emailResultSchema) },
      },
    },
    async (request) => {
      const { email } = request.params;
      await mailAdminService.unsuppress(ctx(request), email);
      return {
        success: true as const,
        data: { email },
        message: 'Address removed from the suppression list successfully',
      };
    },
  );
}
