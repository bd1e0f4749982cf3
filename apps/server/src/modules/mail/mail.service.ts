import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { MailStatus } from '@fleetgate/shared/schemas/mail';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { SecretBox } from '#src/auth/secret-key';
import type { Db } from '#src/db/database';
import { brandService } from '../brand/brand.service';
import type { BrandCache } from '../brand/brand-cache';
import { mailRepository } from './mail.repository';
import { headerSafe } from './mail.templates';
import { deliveryFailure, smtpStatusOf } from './smtp-failure';
import { type SmtpTransportConfig, smtpSettings } from './smtp-settings.repository';
import type { SmtpHostCheck, SmtpTarget } from './smtp-target';

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
  /**
   * Whether an SMTP host may be used (smtp-target.ts): refused when it is, or resolves to,
   * an internal address that SMTP_ALLOWED_HOSTS does not allow.
   */
  checkHost: SmtpHostCheck;
};

/** Timeouts short enough that a dead relay does not hold a request for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * nodemailer's options for one send. It connects to the address the host check resolved and
 * approved, never to the name (which could resolve elsewhere by now); TLS still presents and
 * verifies the configured name (`servername`).
 */
export function transportOptions(config: SmtpTransportConfig, target: Extract<SmtpTarget, { ok: true }>) {
  return {
    host: target.address,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    ...(config.username ? { auth: { user: config.username, pass: config.password ?? '' } } : {}),
    tls: {
      rejectUnauthorized: !config.allowInvalidCertificate,
      ...(target.servername ? { servername: target.servername } : {}),
    },
    ...TIMEOUTS,
  };
}

/**
 * A recipient the server refused for good (5xx on RCPT TO): the address goes on the
 * suppression list, with the status code as the reason (never the server's words).
 */
function hardBounce(error: unknown): string | null {
  const status = smtpStatusOf(error);
  const command = (error as { command?: unknown } | null)?.command;
  if (status === null || status < 550 || status > 553) return null;
  return typeof command === 'string' && /RCPT/i.test(command) ? `Bounced: ${deliveryFailure(error)}` : null;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000);
}

export function createMailService(
  db: Db,
  box: SecretBox,
  log: FastifyBaseLogger,
  checkHost: SmtpHostCheck,
  brands: BrandCache,
): MailService {
  // A message is read away from any host name the console is reached at: the default brand speaks.
  async function appName(): Promise<string> {
    return (await brandService.defaultBrand({ db, brands })).app_name || DEFAULT_BRAND.app_name;
  }

  return {
    appName,
    checkHost,
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
      // Checked again at every send: the name may resolve elsewhere since it was saved.
      const target = await checkHost(config.host);
      if (!target.ok) {
        log.warn({ mailLogId: id, host: config.host, reason: target.reason }, 'SMTP host refused');
        await mailRepository.finishLog(db, id, { status: 'failed', error: target.message, sentAt: null });
        return { id, status: 'failed', error: target.message };
      }
      const transport = nodemailer.createTransport(transportOptions(config, target));
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
        // The server log keeps nodemailer's whole error for the operator; users see our words.
        const text = deliveryFailure(error);
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
