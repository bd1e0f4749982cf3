import { z } from 'zod';
import {
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
  NAME_MAX,
} from '../limits';
import { PERMISSIONS } from '../permissions';
import { idFilter, pageQuerySchema } from './list';
import { body, fields, flag, listOf, oneOf, text, whole } from './messages';

const roleName = text('Name')
  .trim()
  .min(2, 'Name must be at least 2 characters')
  .max(60, 'Name must be at most 60 characters')
  .regex(/^[a-z][a-z0-9_]*$/, 'Name may hold lower-case letters, digits and _ and must start with a letter')
  // The pattern already refuses them; the rule names why, the way every other name does.
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/** A custom role of a company (product §3 Role, §2 users.roles). */
export const roleBodySchema = body({
  company_id: z.coerce
    .number({ error: 'Company is required' })
    .int('Company is required')
    .min(1, 'Company is required'),
  name: roleName,
  title: text('Title')
    .trim()
    .min(1, 'Title is required')
    .max(NAME_MAX, `Title must be at most ${NAME_MAX} characters`)
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE),
  description: text('Description')
    .trim()
    .max(1000, 'Description must be at most 1000 characters')
    .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE)
    .default(''),
  permissions: listOf(z.enum(PERMISSIONS, { error: 'Unknown permission' }), 'Permissions')
    .max(PERMISSIONS.length, `At most ${PERMISSIONS.length} permissions`)
    .refine((list) => new Set(list).size === list.length, 'Permissions must not repeat'),
});

export type RoleBody = z.infer<typeof roleBodySchema>;

export const roleUpdateBodySchema = roleBodySchema.omit({ company_id: true }).partial();
export type RoleUpdateBody = z.infer<typeof roleUpdateBodySchema>;

export const roleSchema = fields('Role', {
  id: whole('Id'),
  name: text('Name'),
  title: text('Title'),
  description: text('Description'),
  canInviteRoles: listOf(text('Role name'), 'Roles it may invite'),
  isDefault: flag('Default role'),
  company_id: whole('Company id').nullable(),
  company_name: text('Company name').nullable(),
  permissions_count: whole('Permission count'),
});
export type Role = z.infer<typeof roleSchema>;

/** A role with the permissions it grants (GET /roles/{id} and what a change answers). */
export const roleWithPermissionsSchema = roleSchema.extend({
  permissions: listOf(text('Permission'), 'Permissions'),
});
export type RoleWithPermissions = z.infer<typeof roleWithPermissionsSchema>;

export const ROLE_TYPES = ['custom', 'default'] as const;

/** GET /roles (product §7: limit 100, optional company_id, custom or default roles). */
export const roleListQuerySchema = pageQuerySchema.extend({
  limit: pageQuerySchema.shape.limit.removeDefault().default(100),
  company_id: idFilter('Company').optional(),
  type: oneOf(ROLE_TYPES, 'Type').optional(),
});
export type RoleListQuery = z.infer<typeof roleListQuerySchema>;
