import { z } from 'zod';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../limits';

/** An e-mail address as the forms and the server accept it: trimmed, lower-cased. */
export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email('Enter a valid email address'))
  .transform((v) => v.toLowerCase());

/** A new password (set, reset, change). */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** Sign-in body. The password is not length-checked beyond the maximum: a wrong one is simply wrong. */
export const loginBodySchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX, 'Invalid email or password'),
  /**
   * The token of the link e-mailed to an account's owner when too many sign-ins failed:
   * with it, the owner signs in past the lock (`unlock` in the sign-in page's address).
   */
  unlock_token: z.string().max(200).optional(),
});
export type LoginBody = z.input<typeof loginBodySchema>;

/** POST /password-confirmation body (spec §7 Session). */
export const passwordConfirmationBodySchema = z.strictObject({
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX),
});

/** POST {auth}/token/revoke body (spec §7 Session). */
export const revokeBodySchema = z
  .strictObject({
    client_id: z.string().max(200).optional(),
    redirect_uri: z.string().max(2000).optional(),
  })
  .optional();

export const sessionInfoSchema = z.object({
  /** Access expiry, seconds since the epoch. */
  exp: z.number().int(),
});

export const revokeResultSchema = z.object({ location: z.string() });

/** The current user of spec §3. */
export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
  company: z.object({
    id: z.number().int(),
    parent_id: z.number().int().nullable(),
    name: z.string(),
    level: z.number().int(),
    show_payment: z.boolean(),
  }),
  company_id: z.number().int(),
  company_name: z.string(),
  role: z.object({ id: z.number().int(), name: z.string(), title: z.string() }),
  role_id: z.number().int(),
  role_title: z.string(),
  tos_accepted: z.boolean(),
  mfa_type: z.string().nullable(),
  /** Session (access) expiry in seconds since the epoch. */
  exp: z.number().int(),
  permissions: z.array(z.string()),
  /** Present with an actor when the session is an impersonation (spec §3). */
  token: z.object({
    actor: z.boolean(),
    actor_user: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  }),
  impersonation_access_limit: z.string().nullable(),
  isImpersonating: z.boolean(),
  show_payment: z.boolean(),
  show_payment_control: z.boolean(),
  country_iso_code: z.string().nullable(),
  /**
   * The sign-in's limits (ASVS V3.3.2), for the console's warnings: when it ends whatever
   * happens, and after how many minutes without use. Absent for personal access tokens.
   */
  session: z.object({ expires_at: z.string(), idle_minutes: z.number().int() }).nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
