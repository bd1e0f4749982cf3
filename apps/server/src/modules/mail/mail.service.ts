import { brandSchema, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { MailStatus } from '@fleetgate/shared/schemas/mail';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { SecretBox } from '../../auth/secret-key';
import type { Db } from '../../db/database';
import { settingsRepository } from '../settings/settings.repository';
import { mailRepository } from './mail.repository';
import { headerSafe } from './mail.templates';
import { type SmtpTransportConfig, smtpSettings } from './smtp-settings';

/** One message to send. `template` names it in the mail log; `companyId` scopes the log row. */
export type MailMessageInput = {
  to: string;
  template: string;
  subject: string;
  text: string;
  html?: string;
  companyId?: number | null;
};

export type MailResult = { id: number; status: MailStatus; error: string | null };

export type MailService = {
  /**
   * Sends a message through the configured SMTP server and records it in the mail log:
   * `sent`, `failed` (with the error), `unsent` (no SMTP configured: the embedded default
   * still works and a super admin reads the message in the log) or `suppressed` (the
   * address is on the suppression list). Never throws for a delivery problem.
   */
  send(message: MailMessageInput): Promise<MailResult>;
  /** The brand's application name, for subjects and signatures. */
  appName(): Promise<string>;
};

/** Timeouts short enough that a dead relay does not hold a request for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function transportOptions(config: SmtpTransportConfig) {
  return {
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    ...(config.username ? { auth: { user: config.username, pass: config.password ?? '' } } : {}),
    tls: { rejectUnauthorized: !config.allowInvalidCertificate },
    ...TIMEOUTS,
  };
}

/** A recipient the server refused for good (5xx on RCPT TO): the address goes on the suppression list. */
function hardBounce(error: unknown): string | null {
  const e = error as { responseCode?: number; command?: string; response?: string } | null;
  if (!e || typeof e.responseCode !== 'number') return null;
  if (e.responseCode >= 550 && e.responseCode <= 553 && /RCPT/i.test(e.command ?? '')) {
    return `Bounced: ${headerSafe(e.response ?? String(e.responseCode)).slice(0, 300)}`;
  }
  return null;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000);
}

export function createMailService(db: Db, box: SecretBox, log: FastifyBaseLogger): MailService {
  async function appName(): Promise<string> {
    const parsed = brandSchema.safeParse((await settingsRepository.get(db, 'brand')) ?? {});
    return (parsed.success ? parsed.data : DEFAULT_BRAND).app_name || DEFAULT_BRAND.app_name;
  }

  return {
    appName,
    async send(message) {
      const to = message.to.trim().toLowerCase();
      const base = {
        to,
        subject: headerSafe(message.subject),
        template: message.template,
        text: message.text,
        html: message.html ?? null,
        companyId: message.companyId ?? null,
      };
      if (await mailRepository.isSuppressed(db, to)) {
        const error = 'The address is on the suppression list';
        const id = await mailRepository.insertLog(db, { ...base, status: 'suppressed', error });
        return { id, status: 'suppressed', error };
      }
      let config: SmtpTransportConfig | null;
      try {
        config = await smtpSettings.forTransport(db, box);
      } catch (error) {
        const text = errorText(error);
        const id = await mailRepository.insertLog(db, { ...base, status: 'failed', error: text });
        return { id, status: 'failed', error: text };
      }
      if (!config) {
        const error = 'SMTP is not configured';
        const id = await mailRepository.insertLog(db, { ...base, status: 'unsent', error });
        return { id, status: 'unsent', error };
      }
      // The row exists before the attempt, so a crash mid-send still leaves a trace.
      const id = await mailRepository.insertLog(db, {
        ...base,
        status: 'failed',
        error: 'Sending did not finish',
      });
      const transport = nodemailer.createTransport(transportOptions(config));
      try {
        await transport.sendMail({
          from: { name: headerSafe(config.fromName || (await appName())), address: config.fromAddress },
          to,
          subject: base.subject,
          text: base.text,
          ...(base.html ? { html: base.html } : {}),
        });
        await mailRepository.finishLog(db, id, { status: 'sent', error: null, sentAt: new Date() });
        return { id, status: 'sent', error: null };
      } catch (error) {
        const text = errorText(error);
        log.warn({ err: error, mailLogId: id }, 'mail delivery failed');
        await mailRepository.finishLog(db, id, { status: 'failed', error: text, sentAt: null });
        const bounce = hardBounce(error);
        if (bounce) await mailRepository.suppress(db, to, bounce);
        return { id, status: 'failed', error: text };
      } finally {
        transport.close();
      }
    },
  };
}
