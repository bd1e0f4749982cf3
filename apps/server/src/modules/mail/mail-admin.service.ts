import type { MailStatus } from '@fleetgate/shared/schemas/mail';
import { AppError, badRequest, conflict, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited, recordAudit } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { callerAudit, type ServiceContext } from '../service-context';
import { mailRepository } from './mail.repository';
import { MAIL_TEMPLATES, smtpTestMail } from './mail.templates';
import { type SmtpInput, smtpSettings } from './smtp-settings.repository';

const mailAudit = (ctx: ServiceContext, action: string, details?: Record<string, unknown>) =>
  callerAudit(ctx, { action, targetType: 'mail', ...(details ? { details } : {}) });

/**
 * The SMTP configuration (product §2 email-smtp), the mail log (mail.logs) and the suppression
 * list (removeFromSuppresionList): the operator's side of mail. Sending is the mailer's
 * (mail.service.ts, `ctx.mail`).
 */
export const mailAdminService = {
  smtp(ctx: ServiceContext) {
    return smtpSettings.present(ctx.db);
  },

  /** Saves the configuration; an internal host is refused unless SMTP_ALLOWED_HOSTS allows it. */
  async saveSmtp(ctx: ServiceContext, body: SmtpInput) {
    if (body.password && body.clear_password)
      throw badRequest('Either enter a new password or remove it, not both', 'password');
    // A name that does not resolve yet is saved: sending checks it again before connecting.
    const target = await ctx.mail.checkHost(body.host);
    if (!target.ok && target.reason === 'internal') throw badRequest(target.message, 'host');
    return audited(
      ctx.db,
      (tx) => smtpSettings.save(tx, ctx.secrets, body),
      () =>
        mailAudit(ctx, 'smtp.update', {
          host: body.host,
          port: body.port,
          security: body.security,
          username: body.username,
          password_changed: Boolean(body.password) || Boolean(body.clear_password),
        }),
    );
  },

  async removeSmtp(ctx: ServiceContext) {
    await audited(
      ctx.db,
      (tx) => smtpSettings.remove(tx),
      () => mailAudit(ctx, 'smtp.remove'),
    );
  },

  /** Sends a test message; a failure answers 502 in our own words (never the server's). */
  async test(ctx: ServiceContext, to: string) {
    const result = await ctx.mail.send({
      to,
      template: MAIL_TEMPLATES.smtpTest,
      ...smtpTestMail(await ctx.mail.appName()),
    });
    await recordAudit(ctx.db, mailAudit(ctx, 'smtp.test', { to, status: result.status }));
    if (result.status === 'unsent') throw badRequest('SMTP is not configured. Save a configuration first.');
    if (result.status === 'suppressed') throw badRequest('The address is on the suppression list', 'to');
    if (result.status === 'failed')
      throw new AppError(502, [
        // The log's words (smtp-failure.ts): never the remote server's reply text.
        { code: 'SMTP_ERROR', message: `Sending failed: ${result.error ?? 'unknown error'}` },
      ]);
    return result;
  },

  /** Selector list of e-mail configurations (product §7): the one SMTP configuration. */
  async configurations(ctx: ServiceContext) {
    const config = await smtpSettings.present(ctx.db);
    if (!config) return [];
    const name = config.from_name ? `${config.from_name} <${config.from_address}>` : config.from_address;
    return [{ id: 1, name, host: config.host, from_address: config.from_address }];
  },

  logs(ctx: ServiceContext, query: ListQuery, filters: { status?: MailStatus; companyId?: number }) {
    const superAdmin = ctx.caller.principal.permissions.includes('super_admin');
    return mailRepository.list(ctx.db, scopeOf(ctx.caller), superAdmin, query, filters);
  },

  async message(ctx: ServiceContext, id: number) {
    const found = await mailRepository.find(ctx.db, id);
    if (!found) throw notFound('Message');
    return found;
  },

  suppressed(ctx: ServiceContext, query: ListQuery) {
    return mailRepository.listSuppressed(ctx.db, query);
  },

  async suppress(ctx: ServiceContext, email: string, reason: string) {
    await audited(
      ctx.db,
      async (tx) => {
        if (!(await mailRepository.suppress(tx, email, reason)))
          throw conflict('The address is already on the suppression list', 'email');
      },
      () => mailAudit(ctx, 'mail.suppress', { email, reason }),
    );
  },

  async unsuppress(ctx: ServiceContext, email: string) {
    await audited(
      ctx.db,
      async (tx) => {
        if (!(await mailRepository.unsuppress(tx, email))) throw notFound('Suppressed address');
      },
      () => mailAudit(ctx, 'mail.unsuppress', { email }),
    );
  },
};
