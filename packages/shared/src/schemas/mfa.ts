import type { z } from 'zod';
import { loginBodySchema } from './auth';
import { body, fields, flag, listOf, oneOf, text, whole } from './messages';

/** Second-step methods of product §1: e-mail code, time-based code app, vendor identity service. */
export const MFA_METHODS = ['email', 'totp', 'vendor'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** Codes expire in 10 minutes, are single use, and a challenge takes at most 5 wrong codes. */
export const MFA_CODE_TTL_MINUTES = 10;
export const MFA_MAX_ATTEMPTS = 5;
/** One-time recovery codes issued with TOTP, shown once. */
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/** Second-step payload of product §3: session_code, session_id, session_uuid. */
export const secondStepFields = {
  session_code: text('Code')
    .trim()
    .min(1, 'Code is required')
    .max(64, 'Code must be at most 64 characters')
    .optional(),
  session_id: text('Session id').trim().max(100, 'Session id must be at most 100 characters').optional(),
  session_uuid: text('Session id').trim().max(100, 'Session id must be at most 100 characters').optional(),
};

/** Sign-in body with the second step the client adds when it resends (product §4 Form submission). */
export const loginWithSecondStepSchema = loginBodySchema.extend(secondStepFields);
export type LoginWithSecondStep = z.input<typeof loginWithSecondStepSchema>;

/** A 6-digit code typed by the user. */
export const otpCodeSchema = text('Code')
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');

/** GET /user/mfa: the user's second step and what may be set up. */
export const mfaStatusSchema = fields('Two-step verification', {
  method: oneOf(MFA_METHODS, 'Method').nullable(),
  /** The company requires a second step (product §6 MFA_MANDATORY). */
  mandatory: flag('Mandatory'),
  recovery_codes_left: whole('Recovery codes left'),
  vendor: fields('Vendor ID', {
    enabled: flag('Vendor ID enabled'),
    name: text('Vendor ID name'),
    linked: flag('Vendor ID linked'),
  }),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** POST /user/mfa/totp: a new secret to scan; shown until confirmed. */
export const totpEnrolmentSchema = fields('Enrolment', {
  secret: text('Secret'),
  otpauth_url: text('otpauth URL'),
  /** The otpauth URL as a QR code (an SVG data URL). */
  qr_code: text('QR code'),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpConfirmBodySchema = body({ code: otpCodeSchema });

/** Recovery codes, shown once (TOTP confirmation, regeneration). */
export const recoveryCodesSchema = fields('Recovery codes', {
  recovery_codes: listOf(text('Recovery code'), 'Recovery codes'),
});
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** POST /user/mfa/email: a code went out; confirm it with the challenge id. */
export const emailEnrolmentSchema = fields('Enrolment', {
  session_id: text('Session id'),
  expires_at: text('Expires at'),
});
export type EmailEnrolment = z.infer<typeof emailEnrolmentSchema>;

export const emailConfirmBodySchema = body({
  session_id: text('Session id')
    .trim()
    .min(1, 'Session id is required')
    .max(100, 'Session id must be at most 100 characters'),
  code: otpCodeSchema,
});

/** Vendor ID (OpenID Connect): where the browser goes to sign in. */
export const authorizationUrlSchema = fields('Result', { authorization_url: text('Authorization URL') });
export type AuthorizationUrl = z.infer<typeof authorizationUrlSchema>;

/** GET /auth/oidc: whether the vendor identity service is configured, and its name. */
export const oidcInfoSchema = fields('Vendor ID', { enabled: flag('Enabled'), name: text('Name') });
export type OidcInfo = z.infer<typeof oidcInfoSchema>;

/** POST /auth/oidc/callback: the query the identity service sent the browser back with. */
export const oidcCallbackBodySchema = body({
  search: text('Search').max(4000, 'Search must be at most 4000 characters'),
  ...secondStepFields,
});

export const oidcCallbackResultSchema = fields('Result', {
  /** Where the browser goes next. */
  location: text('Location'),
  purpose: oneOf(['signin', 'link', 'mfa'], 'Purpose'),
});
