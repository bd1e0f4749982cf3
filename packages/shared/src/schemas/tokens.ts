import { z } from 'zod';
import { hasNoForbiddenChars, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { TOKEN_SCOPE_NAMES } from '../scopes';
import { body, fields, listOf, text, whole } from './messages';

/** Lifetimes offered for a new token, in days; null means it does not expire. */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;
export const TOKEN_NAME_MAX = 100;

/** POST /user/tokens. */
export const createTokenBodySchema = body({
  name: text('Name')
    .trim()
    .min(1, 'Name is required')
    .max(TOKEN_NAME_MAX, `Name must be at most ${TOKEN_NAME_MAX} characters`)
    // product §5: the forbidden characters of names (markup among them).
    .refine(hasNoForbiddenChars, 'Name contains forbidden characters')
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE),
  scopes: listOf(z.enum(TOKEN_SCOPE_NAMES, { error: 'Unknown scope' }), 'Scopes')
    .min(1, 'Choose at least one scope')
    .max(TOKEN_SCOPE_NAMES.length, `At most ${TOKEN_SCOPE_NAMES.length} scopes`)
    .refine((list) => new Set(list).size === list.length, 'Each scope only once'),
  expires_in_days: whole('Lifetime')
    .min(1, 'Lifetime must be at least 1 day')
    .max(366, 'Lifetime must be at most 366 days')
    .nullable()
    .default(null),
});
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

export const apiTokenSchema = fields('Access token', {
  id: whole('Id'),
  name: text('Name'),
  /** The first characters, to recognise the token. */
  prefix: text('Prefix'),
  scopes: listOf(text('Scope'), 'Scopes'),
  created_at: text('Created at'),
  last_used_at: text('Last used at').nullable(),
  expires_at: text('Expires at').nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a creation: the secret, shown this once only. */
export const createdTokenSchema = apiTokenSchema.extend({ token: text('Token') });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
