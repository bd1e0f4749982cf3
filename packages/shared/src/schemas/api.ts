import { z } from 'zod';

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

/** Error entry of spec §3: code, message, source (field name). */
export const errorEntrySchema = z.object({
  code: z.string(),
  message: z.string(),
  source: z.string().optional(),
});
export type ErrorEntry = z.infer<typeof errorEntrySchema>;

export const errorBodySchema = z.object({
  success: z.literal(false),
  errors: z.array(errorEntrySchema),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Response meta of spec §3 (channel, mfa fields, session ids) plus list totals. */
export const metaSchema = z
  .object({
    total: z.number().int().optional(),
    channel: z.string().optional(),
    mfa_method: z.string().optional(),
    mfa_type: z.string().optional(),
    session_uuid: z.string().optional(),
    session_id: z.string().optional(),
  })
  .catchall(z.unknown());

/** The success body of ARCHITECTURE §4: `{ success, data, meta? }`. */
export function okBody<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    meta: metaSchema.optional(),
    message: z.string().optional(),
  });
}
