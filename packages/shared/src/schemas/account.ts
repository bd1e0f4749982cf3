import { z } from 'zod';
import { hasNoForbiddenChars, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE, PASSWORD_MAX } from '../limits';
import { emailSchema, newPasswordSchema } from './auth';

export const USERNAME_MAX = 64;
export const AVATAR_URL_MAX = 2000;

/** A user name: trimmed, without the forbidden characters of spec §5 or invisible ones. */
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .refine(hasNoForbiddenChars, 'Username contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/**
 * PUT /user/profile. Only these fields: role, company, permissions, e-mail and anything
 * else are refused as unknown fields (issue 4 hostile inputs).
 */
export const profileBodySchema = z.strictObject({
  username: usernameSchema.optional(),
  avatar_url: z
    .union([
      z
        .url({ protocol: /^https?$/, error: 'Enter an http or https address' })
        .max(AVATAR_URL_MAX, `Avatar URL must be at most ${AVATAR_URL_MAX} characters`),
      z.literal(''),
      z.null(),
    ])
    .optional(),
  country_iso_code: z
    .union([
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, 'Use a two-letter country code (ISO 3166-1)'),
      z.literal(''),
      z.null(),
    ])
    .optional(),
});
export type ProfileBody = z.input<typeof profileBodySchema>;

/** PUT /user/password: the current password and the new one. */
export const passwordChangeBodySchema = z.strictObject({
  current_password: z.string().min(1, 'Current password is required').max(PASSWORD_MAX),
  password: newPasswordSchema,
});

/** PUT /account/user (spec §7 Session): terms of service / data agreement. */
export const tosBodySchema = z.strictObject({ tos_accepted: z.boolean() });

/**
 * PUT /user/contact, the 'Please enter your email address' modal (spec §4): the address
 * the user receives mail at and a user name that is not that address.
 */
export const contactBodySchema = z
  .strictObject({ email: emailSchema, username: usernameSchema })
  .refine((v) => v.username.toLowerCase() !== v.email, {
    message: 'Choose a username that is not your email address',
    path: ['username'],
  });

export const profileSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  country_iso_code: z.string().nullable(),
  email_verified: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

/** One signed-in browser of the user (account settings, active sessions). */
export const accountSessionSchema = z.object({
  id: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  current: z.boolean(),
  /** The support person acting as the user in this session, if any. */
  impersonated_by: z.string().nullable(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** POST /auth/user/activation/verify: the token of the e-mail confirmation link. */
export const activationVerifyBodySchema = z.strictObject({ token: z.string().min(1).max(2000) });
