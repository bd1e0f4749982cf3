import { z } from 'zod';
import { hasNoForbiddenChars, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE, PASSWORD_MAX } from '../limits';
import { emailSchema, newPasswordSchema } from './auth';
import { body, fields, flag, text, whole } from './messages';

export const USERNAME_MAX = 64;
export const AVATAR_URL_MAX = 2000;

/** A user name: trimmed, without the forbidden characters of product §5 or invisible ones. */
export const usernameSchema = text('Username')
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .refine(hasNoForbiddenChars, 'Username contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/**
 * PUT /user/profile. Only these fields: role, company, permissions, e-mail and anything
 * else are refused as unknown fields (hostile inputs).
 */
export const profileBodySchema = body({
  username: usernameSchema.optional(),
  avatar_url: z
    .union(
      [
        z
          .url({ protocol: /^https?$/, error: 'Enter an http or https address' })
          .max(AVATAR_URL_MAX, `Avatar URL must be at most ${AVATAR_URL_MAX} characters`),
        z.literal(''),
        z.null(),
      ],
      { error: 'Enter an http or https address' },
    )
    .optional(),
  country_iso_code: z
    .union(
      [
        text('Country code')
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{2}$/, 'Use a two-letter country code (ISO 3166-1)'),
        z.literal(''),
        z.null(),
      ],
      { error: 'Use a two-letter country code (ISO 3166-1)' },
    )
    .optional(),
});
export type ProfileBody = z.input<typeof profileBodySchema>;

/** PUT /user/password: the current password and the new one. */
export const passwordChangeBodySchema = body({
  current_password: text('Current password')
    .min(1, 'Current password is required')
    .max(PASSWORD_MAX, `Current password must be at most ${PASSWORD_MAX} characters`),
  password: newPasswordSchema,
});

/** PUT /account/user (product §7 Session): terms of service / data agreement. */
export const tosBodySchema = body({ tos_accepted: flag('Terms accepted') });

/**
 * PUT /user/contact, the 'Please enter your email address' modal (product §4): the address
 * the user receives mail at and a user name that is not that address.
 */
export const contactBodySchema = body({ email: emailSchema, username: usernameSchema }).refine(
  (v) => v.username.toLowerCase() !== v.email,
  {
    message: 'Choose a username that is not your email address',
    path: ['username'],
  },
);

export const profileSchema = fields('Profile', {
  id: whole('Id'),
  email: text('Email'),
  username: text('Username'),
  avatar_url: text('Avatar URL').nullable(),
  country_iso_code: text('Country code').nullable(),
  email_verified: flag('Email verified'),
});
export type Profile = z.infer<typeof profileSchema>;

/** One signed-in browser of the user (account settings, active sessions). */
export const accountSessionSchema = fields('Session', {
  id: text('Id'),
  user_agent: text('User agent').nullable(),
  ip: text('IP address').nullable(),
  created_at: text('Created at'),
  last_seen_at: text('Last seen at'),
  expires_at: text('Expires at'),
  current: flag('Current'),
  /** The support person acting as the user in this session, if any. */
  impersonated_by: text('Impersonated by').nullable(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** POST /auth/user/activation/verify: the token of the e-mail confirmation link. */
export const activationVerifyBodySchema = body({
  token: text('Token').min(1, 'Token is required').max(2000, 'Token must be at most 2000 characters'),
});

/** What accepting the terms answers (product §7 PUT /account/user). */
export const tosResultSchema = fields('Result', { tos_accepted: flag('Terms accepted') });
export type TosResult = z.infer<typeof tosResultSchema>;

/** What signing one browser out answers: the id of its session. */
export const sessionRevokedSchema = fields('Result', { id: text('Session id') });
export type SessionRevoked = z.infer<typeof sessionRevokedSchema>;

/** What signing out every other browser answers: how many sessions ended. */
export const sessionsRevokedSchema = fields('Result', { revoked: whole('Revoked') });
export type SessionsRevoked = z.infer<typeof sessionsRevokedSchema>;
