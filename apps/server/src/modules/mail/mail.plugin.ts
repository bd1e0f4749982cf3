import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailService, type MailService } from './mail.service';
import { smtpHostCheck } from './smtp-target';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Outgoing e-mail: `app.mail.send({ to, template, subject, text, html?, companyId? })`
     * from any feature (invitations, e-mail codes, impersonation requests). Every message
     * lands in the mail log with its status.
     */
    mail: MailService;
  }
}

/** Exposes the mail service to every feature (CONVENTIONS example 7). */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'mail',
      createMailService(app.db, app.secrets, app.log, smtpHostCheck(app.config.smtpAllowedHosts), app.brands),
    );
  },
  { name: 'mail' },
);
