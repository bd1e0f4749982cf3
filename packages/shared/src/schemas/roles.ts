import { z } from 'zod';
import {
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
  NAME_MAX,
} from '../limits';
import { PERMISSIONS } from '../permissions';

const roleName = z
  .string()
  .trim()
  .min(2, 'Name must be at least 2 characters')
  .max(60, 'Name must be at most 60 characters')
  .regex(/^[a-z][a-z0-9_]*$/, 'Name may hold lower-case letters, digits and _ and must start with a letter')
  // The pattern already refuses them; the rule names why, the way every other name does.
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/** A custom role of a company (spec §3 Role, §2 users.roles). */
export const roleBodySchema = z.strictObject({
  company_id: z.coerce.number().int().min(1, 'Company is required'),
  name: roleName,
  title: z
    .string()
    .trim()
    .min(1, 'Title is required')
    .max(NAME_MAX, `Title must be at most ${NAME_MAX} characters`)
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE),
  description: z
    .string()
    .trim()
    .max(1000, 'Description must be at most 1000 characters')
    .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE)
    .default(''),
  permissions: z
    .array(z.enum(PERMISSIONS, { error: 'Unknown permission' }))
    .max(PERMISSIONS.length)
    .refine((list) => new Set(list).size === list.length, 'Permissions must not repeat'),
});

export const roleUpdateBodySchema = roleBodySchema.omit({ company_id: true }).partial();

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  canInviteRoles: z.array(z.string()),
  isDefault: z.boolean(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  permissions_count: z.number().int(),
});
export type Role = z.infer<typeof roleSchema>;
