import { z } from 'zod';
import { emailSchema } from './auth';
import { idFilter, listQuerySchema } from './list';
import { body, fields, flag, instantOrText, listOf, text, whole } from './messages';

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} is required`)
    .min(1, `${label} is required`);

/** 'edit user role' (product §2): PUT /users/{id}/role. */
export const editUserRoleBodySchema = body({ role_id: id('Role') });

/** Most users moved at once by 'move users' (product §2). */
export const MOVE_USERS_MAX = 100;

/** 'move users' (product §2, §7 /users/move): POST /users/move. */
export const moveUsersBodySchema = body({
  user_ids: listOf(id('User'), 'Users')
    .min(1, 'Choose at least one user')
    .max(MOVE_USERS_MAX, `At most ${MOVE_USERS_MAX} users at once`)
    .refine((list) => new Set(list).size === list.length, 'Users must not repeat'),
  company_id: id('Company'),
});
export type MoveUsersBody = z.input<typeof moveUsersBodySchema>;

/** What moving users answers: how many moved, and where to. */
export const usersMovedSchema = fields('Result', { moved: whole('Moved'), company_id: whole('Company id') });
export type UsersMoved = z.infer<typeof usersMovedSchema>;

/** removeUserMfa, deleteUser, makeSSOAdmin (product §3 admin-only forms): the user's e-mail. */
export const adminUserEmailBodySchema = body({ email: emailSchema });

/** A row of users.table (product §2). */
export const userRowSchema = fields('User', {
  id: whole('Id'),
  email: text('Email'),
  username: text('Username'),
  name: text('Name'),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  role_id: whole('Role id'),
  role_name: text('Role name'),
  role_title: text('Role title'),
  mfa_type: text('MFA type').nullable(),
  sso_admin: flag('SSO administrator'),
  last_login_at: instantOrText('Last login').nullable(),
  created_at: instantOrText('Created at'),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** A row of users.move-logs (product §2). */
export const userMoveLogSchema = fields('Move log entry', {
  id: whole('Id'),
  user_id: whole('User id').nullable(),
  user_email: text('User email'),
  from_company_id: whole('From company id').nullable(),
  from_company_name: text('From company').nullable(),
  to_company_id: whole('To company id').nullable(),
  to_company_name: text('To company').nullable(),
  moved_by: text('Moved by').nullable(),
  moved_at: instantOrText('Moved at'),
});
export type UserMoveLog = z.infer<typeof userMoveLogSchema>;

/** GET /users and /users/move-logs: the list parameters and the users of one company. */
export const userListQuerySchema = listQuerySchema.extend({ company_id: idFilter('Company').optional() });
export type UserListQuery = z.infer<typeof userListQuerySchema>;
