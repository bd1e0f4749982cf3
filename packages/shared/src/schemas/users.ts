import { z } from 'zod';
import { emailSchema } from './auth';

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} is required`)
    .min(1, `${label} is required`);

/** 'edit user role' (spec §2): PUT /users/{id}/role. */
export const editUserRoleBodySchema = z.strictObject({ role_id: id('Role') });

/** Most users moved at once by 'move users' (spec §2). */
export const MOVE_USERS_MAX = 100;

/** 'move users' (spec §2, §7 /users/move): POST /users/move. */
export const moveUsersBodySchema = z.strictObject({
  user_ids: z
    .array(z.coerce.number().int().min(1))
    .min(1, 'Choose at least one user')
    .max(MOVE_USERS_MAX, `At most ${MOVE_USERS_MAX} users at once`)
    .refine((list) => new Set(list).size === list.length, 'Users must not repeat'),
  company_id: id('Company'),
});
export type MoveUsersBody = z.input<typeof moveUsersBodySchema>;

/** removeUserMfa, deleteUser, makeSSOAdmin (spec §3 admin-only forms): the user's e-mail. */
export const adminUserEmailBodySchema = z.strictObject({ email: emailSchema });

/** A row of users.table (spec §2). */
export const userRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  role_id: z.number().int(),
  role_name: z.string(),
  role_title: z.string(),
  mfa_type: z.string().nullable(),
  sso_admin: z.boolean(),
  last_login_at: z.date().or(z.string()).nullable(),
  created_at: z.date().or(z.string()),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** A row of users.move-logs (spec §2). */
export const userMoveLogSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_email: z.string(),
  from_company_id: z.number().int().nullable(),
  from_company_name: z.string().nullable(),
  to_company_id: z.number().int().nullable(),
  to_company_name: z.string().nullable(),
  moved_by: z.string().nullable(),
  moved_at: z.date().or(z.string()),
});
export type UserMoveLog = z.infer<typeof userMoveLogSchema>;
