import { z } from 'zod';
import { EMAIL_MAX, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { emailSchema } from './auth';
import { idFilter, listQuerySchema } from './list';
import { body, fields, flag, instantOrText, oneOf, text, whole } from './messages';

/** How the connection to the SMTP server is protected. */
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export const MAIL_STATUSES = ['sent', 'unsent', 'failed', 'suppressed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

const hostName = text('Host')
  .trim()
  .min(1, 'Host is required')
  .max(253, 'Host must be at most 253 characters')
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'Enter a host name or an IP address');

/**
 * The 'SMTP configuration' dialog (product §2, route email-smtp). An empty password keeps
 * the stored one; the stored one is never sent back (`password_set`).
 */
export const smtpConfigBodySchema = body({
  host: hostName,
  port: z.coerce
    .number({ error: 'Port is required' })
    .int('Port must be a whole number')
    .min(1, 'Port must be between 1 and 65535')
    .max(65535, 'Port must be between 1 and 65535'),
  security: z.enum(SMTP_SECURITY, { error: 'Choose how the connection is protected' }),
  /** Accept a certificate that does not verify (a self-signed relay inside the network). */
  allow_invalid_certificate: flag('Accept an unverified certificate').default(false),
  username: text('User').trim().max(255, 'User must be at most 255 characters').default(''),
  password: text('Password').max(1024, 'Password must be at most 1024 characters').optional(),
  /** Removes the stored password (an SMTP server without authentication). */
  clear_password: flag('Remove the stored password').optional(),
  from_address: emailSchema,
  from_name: text('Sender name')
    .trim()
    .max(120, 'Sender name must be at most 120 characters')
    .refine((v) => !/[\r\n<>"]/.test(v), 'Sender name must not contain line breaks, quotes or angle brackets')
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE)
    .default(''),
});
export type SmtpConfigBody = z.input<typeof smtpConfigBodySchema>;

/** The stored configuration as the API shows it: never the password itself. */
export const smtpConfigSchema = fields('SMTP configuration', {
  host: text('Host'),
  port: whole('Port'),
  security: oneOf(SMTP_SECURITY, 'Connection security'),
  allow_invalid_certificate: flag('Accept an unverified certificate'),
  username: text('User'),
  password_set: flag('Password stored'),
  from_address: text('Sender address'),
  from_name: text('Sender name'),
  updated_at: text('Last changed').nullable(),
});
export type SmtpConfig = z.infer<typeof smtpConfigSchema>;

/** 'Send test message'. */
export const smtpTestBodySchema = body({ to: emailSchema });

/** One row of the mail log (product §2 mail.logs). The text is read on its own (`GET /mail-logs/:id`). */
export const mailLogRowSchema = fields('Mail log entry', {
  id: whole('Id'),
  to: text('Recipient'),
  subject: text('Subject'),
  template: text('Template'),
  status: oneOf(MAIL_STATUSES, 'Status'),
  error: text('Error').nullable(),
  company_id: whole('Company id').nullable(),
  company_name: text('Company name').nullable(),
  created_at: instantOrText('Created at'),
  sent_at: instantOrText('Sent at').nullable(),
});
export type MailLogRow = z.infer<typeof mailLogRowSchema>;

export const mailMessageSchema = mailLogRowSchema.extend({
  text: text('Text'),
  html: text('HTML').nullable(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** The suppression list (product §3 removeFromSuppresionList). */
export const suppressedEmailSchema = fields('Suppressed address', {
  email: text('Email'),
  reason: text('Reason'),
  created_at: instantOrText('Created at'),
});
export type SuppressedEmail = z.infer<typeof suppressedEmailSchema>;

export const suppressBodySchema = body({
  email: emailSchema,
  reason: text('Reason')
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});

/** The e-mail path parameter of DELETE /suppressed-emails/{email}. */
export const suppressedEmailParamsSchema = fields('Parameters', {
  email: text('Email')
    .trim()
    .min(1, 'Email is required')
    .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
    .transform((v) => v.toLowerCase()),
});

/** The selector list of product §7 (`GET /email-configurations`): the one configuration, if any. */
export const emailConfigurationSchema = fields('Email configuration', {
  id: whole('Id'),
  name: text('Name'),
  host: text('Host'),
  from_address: text('Sender address'),
});

/** What a test message answers: its row in the mail log and how it fared. */
export const smtpTestResultSchema = fields('Result', {
  id: whole('Id'),
  status: oneOf(MAIL_STATUSES, 'Status'),
});

/** GET /mail-logs: the list parameters, messages of one status, of one company. */
export const mailLogListQuerySchema = listQuerySchema.extend({
  status: oneOf(MAIL_STATUSES, 'Status').optional(),
  company_id: idFilter('Company').optional(),
});
export type MailLogListQuery = z.infer<typeof mailLogListQuerySchema>;
