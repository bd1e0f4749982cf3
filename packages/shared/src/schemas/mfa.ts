import { z } from 'zod';
import { loginBodySchema } from './auth';

/** Second-step methods of spec §1: e-mail code, time-based code app, vendor identity service. */
export const MFA_METHODS = ['email', 'totp', 'vendor'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** Codes expire in 10 minutes, are single use, and a challenge takes at most 5 wrong codes (issue 4). */
export const MFA_CODE_TTL_MINUTES = 10;
export const MFA_MAX_ATTEMPTS = 5;
/** One-time recovery codes issued with TOTP, shown once. */
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/** Second-step payload of spec §3: session_code, session_id, session_uuid. */
export const secondStepFields = {
  session_code: z.string().trim().min(1, 'Code is required').max(64).optional(),
  session_id: z.string().trim().max(100).optional(),
  session_uuid: z.string().trim().max(100).optional(),
};

/** Sign-in body with the second step the client adds when it resends (spec §4 Form submission). */
export const loginWithSecondStepSchema = loginBodySchema.extend(secondStepFields);
export type LoginWithSecondStep = z.input<typeof loginWithSecondStepSchema>;

/** A 6-digit code typed by the user. */
export const otpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');

/** GET /user/mfa: the user's second step and what may be set up. */
export const mfaStatusSchema = z.object({
  method: z.enum(MFA_METHODS).nullable(),
  /** The company requires a second step (spec §6 MFA_MANDATORY). */
  mandatory: z.boolean(),
  recovery_codes_left: z.number().int(),
  vendor: z.object({ enabled: z.boolean(), name: z.string(), linked: z.boolean() }),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** POST /user/mfa/totp: a new secret to scan; shown until confirmed. */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code (an SVG data URL). */
  qr_code: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpConfirmBodySchema = z.strictObject({ code: otpCodeSchema });

/** Recovery codes, shown once (TOTP confirmation, regeneration). */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** POST /user/mfa/email: a code went out; confirm it with the challenge id. */
export const emailEnrolmentSchema = z.object({ session_id: z.string(), expires_at: z.string() });
export const emailConfirmBodySchema = z.strictObject({
  session_id: z.string().trim().min(1).max(100),
  code: otpCodeSchema,
});

/** Vendor ID (OpenID Connect): where the browser goes to sign in. */
export const authorizationUrlSchema = z.object({ authorization_url: z.string() });

/** GET /auth/oidc: whether the vendor identity service is configured, and its name. */
export const oidcInfoSchema = z.object({ enabled: z.boolean(), name: z.string() });

/** POST /auth/oidc/callback: the query the identity service sent the browser back with. */
export const oidcCallbackBodySchema = z.strictObject({
  search: z.string().max(4000),
  ...secondStepFields,
});

export const oidcCallbackResultSchema = z.object({
  /** Where the browser goes next. */
  location: z.string(),
  purpose: z.enum(['signin', 'link', 'mfa']),
});
