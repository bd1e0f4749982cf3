import { z } from 'zod';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../limits';
import { body, fields, flag, listOf, text, whole } from './messages';

/** An e-mail address as the forms and the server accept it: trimmed, lower-cased. */
export const emailSchema = text('Email')
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email('Enter a valid email address'))
  .transform((v) => v.toLowerCase());

/** A new password (set, reset, change). */
export const newPasswordSchema = text('Password')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** Sign-in body. The password is not length-checked beyond the maximum: a wrong one is simply wrong. */
export const loginBodySchema = body({
  email: emailSchema,
  password: text('Password').min(1, 'Password is required').max(PASSWORD_MAX, 'Invalid email or password'),
  /**
   * The token of the link e-mailed to an account's owner when too many sign-ins failed:
   * with it, the owner signs in past the lock (`unlock` in the sign-in page's address).
   */
  unlock_token: text('Unlock token').max(200, 'Unlock token must be at most 200 characters').optional(),
});
export type LoginBody = z.input<typeof loginBodySchema>;

/** POST /password-confirmation body (product §7 Session). */
export const passwordConfirmationBodySchema = body({
  password: text('Password')
    .min(1, 'Password is required')
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
});

/** POST {auth}/token/revoke body (product §7 Session). */
export const revokeBodySchema = body({
  client_id: text('Client id').max(200, 'Client id must be at most 200 characters').optional(),
  redirect_uri: text('Redirect URI').max(2000, 'Redirect URI must be at most 2000 characters').optional(),
}).optional();

export const sessionInfoSchema = fields('Session', {
  /** Access expiry, seconds since the epoch. */
  exp: whole('Expiry'),
});

export const revokeResultSchema = fields('Result', { location: text('Location') });

/** The current user of product §3. */
export const currentUserSchema = fields('User', {
  id: whole('Id'),
  username: text('Username'),
  email: text('Email'),
  avatar_url: text('Avatar URL').nullable(),
  company: fields('Company', {
    id: whole('Company id'),
    parent_id: whole('Parent company id').nullable(),
    name: text('Company name'),
    level: whole('Company level'),
    show_payment: flag('Show payment'),
  }),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  role: fields('Role', { id: whole('Role id'), name: text('Role name'), title: text('Role title') }),
  role_id: whole('Role id'),
  role_title: text('Role title'),
  tos_accepted: flag('Terms accepted'),
  mfa_type: text('MFA type').nullable(),
  /** Session (access) expiry in seconds since the epoch. */
  exp: whole('Expiry'),
  permissions: listOf(text('Permission'), 'Permissions'),
  /** Present with an actor when the session is an impersonation (product §3). */
  token: fields('Token', {
    actor: flag('Actor'),
    actor_user: fields('Actor', { id: whole('Actor id'), email: text('Actor email') }).nullable(),
  }),
  impersonation_access_limit: text('Impersonation access limit').nullable(),
  isImpersonating: flag('Impersonating'),
  show_payment: flag('Show payment'),
  show_payment_control: flag('Show payment control'),
  country_iso_code: text('Country code').nullable(),
  /**
   * The sign-in's limits (ASVS V3.3.2), for the console's warnings: when it ends whatever
   * happens, and after how many minutes without use. Absent for personal access tokens.
   */
  session: fields('Session', {
    expires_at: text('Session end'),
    idle_minutes: whole('Idle minutes'),
  }).nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** What a password confirmation answers (the 423 step-up may be retried now). */
export const passwordConfirmedSchema = fields('Result', {
  confirmed: z.literal(true, { error: 'Confirmed must be true' }),
});
