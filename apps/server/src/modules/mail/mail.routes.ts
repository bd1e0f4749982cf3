import { okBody } from '@fleetgate/shared/schemas/api';
import {
  emailConfigurationSchema,
  MAIL_STATUSES,
  mailLogRowSchema,
  mailMessageSchema,
  smtpConfigBodySchema,
  smtpConfigSchema,
  smtpTestBodySchema,
  suppressBodySchema,
  suppressedEmailParamsSchema,
  suppressedEmailSchema,
} from '@fleetgate/shared/schemas/mail';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { listQuerySchema } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { type AuditEntry, audited, auditIdentity, recordAudit } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { mailRepository } from './mail.repository';
import { MAIL_TEMPLATES, smtpTestMail } from './mail.templates';
import { smtpSettings } from './smtp-settings.repository';

const superAdmin = { access: { permission: 'super_admin' as const } };

/**
 * The SMTP configuration (spec §2 email-smtp, 'SMTP configuration' dialog), the mail log
 * (spec §2 mail.logs) and the suppression list (spec §3 removeFromSuppresionList).
 */
export async function mailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entry = (request: FastifyRequest, action: string, details?: Record<string, unknown>): AuditEntry => ({
    action,
    ...auditIdentity(requireAuth(request)),
    targetType: 'mail',
    ...(details ? { details } : {}),
    ip: request.ip,
  });
  /** Records an event that changes nothing (a test message). */
  const audit = (request: FastifyRequest, action: string, details?: Record<string, unknown>) =>
    recordAudit(app.db, entry(request, action, details));

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
    async () => ({ success: true as const, data: await smtpSettings.present(app.db) }),
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
      const body = request.body;
      if (body.password && body.clear_password)
        throw badRequest('Either enter a new password or remove it, not both', 'password');
      // A name that does not resolve yet is saved: sending checks it again before connecting.
      const target = await app.mail.checkHost(body.host);
      if (!target.ok && target.reason === 'internal') throw badRequest(target.message, 'host');
      const saved = await audited(
        app.db,
        (tx) => smtpSettings.save(tx, app.secrets, body),
        () =>
          entry(request, 'smtp.update', {
            host: body.host,
            port: body.port,
            security: body.security,
            username: body.username,
            password_changed: Boolean(body.password) || Boolean(body.clear_password),
          }),
      );
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
        response: { 200: okBody(z.null()) },
      },
    },
    async (request) => {
      await audited(
        app.db,
        (tx) => smtpSettings.remove(tx),
        () => entry(request, 'smtp.remove'),
      );
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
        response: {
          200: okBody(z.object({ id: z.number().int(), status: z.enum(MAIL_STATUSES) })),
        },
      },
    },
    async (request) => {
      const appName = await app.mail.appName();
      const result = await app.mail.send({
        to: request.body.to,
        template: MAIL_TEMPLATES.smtpTest,
        ...smtpTestMail(appName),
      });
      await audit(request, 'smtp.test', { to: request.body.to, status: result.status });
      if (result.status === 'unsent') throw badRequest('SMTP is not configured. Save a configuration first.');
      if (result.status === 'suppressed') throw badRequest('The address is on the suppression list', 'to');
      if (result.status === 'failed')
        throw new AppError(502, [
          // The log's words (smtp-failure.ts): never the remote server's reply text.
          { code: 'SMTP_ERROR', message: `Sending failed: ${result.error ?? 'unknown error'}` },
        ]);
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
        summary: 'Selector list of e-mail configurations (spec §7): the one SMTP configuration',
        querystring: listQuerySchema,
        response: { 200: okBody(z.array(emailConfigurationSchema)) },
      },
    },
    async () => {
      const config = await smtpSettings.present(app.db);
      const data = config
        ? [
            {
              id: 1,
              name: config.from_name ? `${config.from_name} <${config.from_address}>` : config.from_address,
              host: config.host,
              from_address: config.from_address,
            },
          ]
        : [];
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
        querystring: listQuerySchema.extend({
          status: z.enum(MAIL_STATUSES).optional(),
          company_id: z.coerce.number().int().min(1).optional(),
        }),
        response: { 200: okBody(z.array(mailLogRowSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { status, company_id, ...query } = request.query;
      const { rows, total } = await mailRepository.list(
        app.db,
        scopeOf(auth),
        auth.principal.permissions.includes('super_admin'),
        query,
        { ...(status ? { status } : {}), ...(company_id ? { companyId: company_id } : {}) },
      );
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
        params: z.object({ id: z.coerce.number().int().min(1) }),
        response: { 200: okBody(mailMessageSchema) },
      },
    },
    async (request) => {
      const found = await mailRepository.find(app.db, request.params.id);
      if (!found) throw notFound('Message');
      return { success: true as const, data: found };
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
      const { rows, total } = await mailRepository.listSuppressed(app.db, request.query);
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
        response: { 200: okBody(z.object({ email: z.string() })) },
      },
    },
    async (request) => {
      const { email, reason } = request.body;
      await audited(
        app.db,
        async (tx) => {
          if (!(await mailRepository.suppress(tx, email, reason)))
            throw conflict('The address is already on the suppression list', 'email');
        },
        () => entry(request, 'mail.suppress', { email, reason }),
      );
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
        summary: 'Remove an address from the suppression list (spec §3 removeFromSuppresionList)',
        params: suppressedEmailParamsSchema,
        response: { 200: okBody(z.object({ email: z.string() })) },
      },
    },
    async (request) => {
      const { email } = request.params;
      await audited(
        app.db,
        async (tx) => {
          if (!(await mailRepository.unsuppress(tx, email))) throw notFound('Suppressed address');
        },
        () => entry(request, 'mail.unsuppress', { email }),
      );
      return {
        success: true as const,
        data: { email },
        message: 'Address removed from the suppression list successfully',
      };
    },
  );
}
