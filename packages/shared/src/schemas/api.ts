import { z } from 'zod';
import { fields, listOf, text, typeMessage, whole } from './messages';

/** Error codes of ARCHITECTURE §4. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'MFA_REQUIRED',
  'CONFIRMATION_FAILED',
  'EMAIL_NOT_VERIFIED',
  'NOT_INVITED_EXTERNAL_USER',
  'MFA_MANDATORY',
  'RATE_LIMITED',
  'PASSWORD_CONFIRMATION_REQUIRED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Error entry of product §3: code, message, source (field name). */
export const errorEntrySchema = fields('Error', {
  code: text('Error code'),
  message: text('Error message'),
  source: text('Error source').optional(),
});
export type ErrorEntry = z.infer<typeof errorEntrySchema>;

export const errorBodySchema = fields('Response', {
  success: z.literal(false, { error: 'Success must be false' }),
  errors: listOf(errorEntrySchema, 'Errors'),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Response meta of product §3 (channel, mfa fields, session ids) plus list totals. */
export const metaSchema = fields('Meta', {
  total: whole('Total').optional(),
  channel: text('Channel').optional(),
  mfa_method: text('MFA method').optional(),
  mfa_type: text('MFA type').optional(),
  session_uuid: text('Session UUID').optional(),
  session_id: text('Session id').optional(),
}).catchall(z.unknown());

export type Meta = z.infer<typeof metaSchema>;

/** The success body of ARCHITECTURE §4: `{ success, data, meta? }`. */
export function okBody<T extends z.ZodType>(data: T) {
  return z.object(
    {
      success: z.literal(true, { error: 'Success must be true' }),
      data,
      meta: metaSchema.optional(),
      message: text('Message').optional(),
    },
    { error: typeMessage('Response', 'an object') },
  );
}

/** A success body as a presenter builds it, for a route whose `response` is `okBody(schema of T)`. */
export type OkBody<T> = { success: true; data: T; meta?: Meta; message?: string };

/**
 * A response type as the console receives it: JSON carries every date as ISO text. The
 * console's types are `Json<z.infer<typeof someSchema>>`, never written again by hand.
 */
export type Json<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Json<Item>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** What a removal answers: the id of what is gone (and what a change answers when nothing else is new). */
export const idResultSchema = fields('Result', { id: whole('Id') });
export type IdResult = z.infer<typeof idResultSchema>;

/** What an action with nothing to report answers. */
export const okResultSchema = fields('Result', { ok: z.literal(true, { error: 'Ok must be true' }) });
export type OkResult = z.infer<typeof okResultSchema>;

/** What an action on one address answers: the address. */
export const emailResultSchema = fields('Result', { email: text('Email') });
export type EmailResult = z.infer<typeof emailResultSchema>;

/** What an answer without data carries. */
export const noDataSchema = z.null({ error: 'Data must be null' });
