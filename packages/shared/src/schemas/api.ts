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
