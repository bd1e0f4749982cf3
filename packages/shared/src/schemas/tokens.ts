import { z } from 'zod';
import { hasNoForbiddenChars, hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { TOKEN_SCOPE_NAMES } from '../scopes';

/** Lifetimes offered for a new token, in days; null means it does not expire. */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;
export const TOKEN_NAME_MAX = 100;

/** POST /user/tokens. */
export const createTokenBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(TOKEN_NAME_MAX, `Name must be at most ${TOKEN_NAME_MAX} characters`)
    // spec §5: the forbidden characters of names (markup among them).
    .refine(hasNoForbiddenChars, 'Name contains forbidden characters')
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE),
  scopes: z
    .array(z.enum(TOKEN_SCOPE_NAMES, { error: 'Unknown scope' }))
    .min(1, 'Choose at least one scope')
    .max(TOKEN_SCOPE_NAMES.length)
    .refine((list) => new Set(list).size === list.length, 'Each scope only once'),
  expires_in_days: z.number().int().min(1).max(366).nullable().default(null),
});
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters, to recognise the token. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a creation: the secret, shown this once only. */
export const createdTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
