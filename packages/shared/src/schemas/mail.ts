import { z } from 'zod';
import { EMAIL_MAX, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { emailSchema } from './auth';

/** How the connection to the SMTP server is protected. */
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export const MAIL_STATUSES = ['sent', 'unsent', 'failed', 'suppressed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

const hostName = z
  .string()
  .trim()
  .min(1, 'Host is required')
  .max(253, 'Host must be at most 253 characters')
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'Enter a host name or an IP address');

/**
 * The 'SMTP configuration' dialog (spec §2, route email-smtp). An empty password keeps
 * the stored one; the stored one is never sent back (`password_set`).
 */
export const smtpConfigBodySchema = z.strictObject({
  host: hostName,
  port: z.coerce
    .number({ error: 'Port is required' })
    .int('Port must be a whole number')
    .min(1, 'Port must be between 1 and 65535')
    .max(65535, 'Port must be between 1 and 65535'),
  security: z.enum(SMTP_SECURITY, { error: 'Choose how the connection is protected' }),
  /** Accept a certificate that does not verify (a self-signed relay inside the network). */
  allow_invalid_certificate: z.boolean().default(false),
  username: z.string().trim().max(255, 'User must be at most 255 characters').default(''),
  password: z.string().max(1024, 'Password must be at most 1024 characters').optional(),
  /** Removes the stored password (an SMTP server without authentication). */
  clear_password: z.boolean().optional(),
  from_address: emailSchema,
  from_name: z
    .string()
    .trim()
    .max(120, 'Sender name must be at most 120 characters')
    .refine((v) => !/[\r\n<>"]/.test(v), 'Sender name must not contain line breaks, quotes or angle brackets')
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE)
    .default(''),
});
export type SmtpConfigBody = z.input<typeof smtpConfigBodySchema>;

/** The stored configuration as the API shows it: never the password itself. */
export const smtpConfigSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  allow_invalid_certificate: z.boolean(),
  username: z.string(),
  password_set: z.boolean(),
  from_address: z.string(),
  from_name: z.string(),
  updated_at: z.string().nullable(),
});
export type SmtpConfig = z.infer<typeof smtpConfigSchema>;

/** 'Send test message'. */
export const smtpTestBodySchema = z.strictObject({ to: emailSchema });

/** One row of the mail log (spec §2 mail.logs). The text is read on its own (`GET /mail-logs/:id`). */
export const mailLogRowSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  status: z.enum(MAIL_STATUSES),
  error: z.string().nullable(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  created_at: z.date().or(z.string()),
  sent_at: z.date().or(z.string()).nullable(),
});
export type MailLogRow = z.infer<typeof mailLogRowSchema>;

export const mailMessageSchema = mailLogRowSchema.extend({ text: z.string(), html: z.string().nullable() });
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** The suppression list (spec §3 removeFromSuppresionList). */
export const suppressedEmailSchema = z.object({
  email: z.string(),
  reason: z.string(),
  created_at: z.date().or(z.string()),
});
export type SuppressedEmail = z.infer<typeof suppressedEmailSchema>;

export const suppressBodySchema = z.strictObject({
  email: emailSchema,
  reason: z.string().trim().min(1, 'Reason is required').max(500, 'Reason must be at most 500 characters'),
});

/** The e-mail path parameter of DELETE /suppressed-emails/{email}. */
export const suppressedEmailParamsSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1)
    .max(EMAIL_MAX)
    .transform((v) => v.toLowerCase()),
});

/** The selector list of spec §7 (`GET /email-configurations`): the one configuration, if any. */
export const emailConfigurationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  host: z.string(),
  from_address: z.string(),
});
