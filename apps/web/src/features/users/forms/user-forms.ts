import { EMAIL_MAX } from '@fleetgate/shared/limits';
import { inviteDistributorBodySchema } from '@fleetgate/shared/schemas/invitations';
import { adminUserEmailBodySchema } from '@fleetgate/shared/schemas/users';
import type { FieldDef, FormDefinition } from '#src/lib/forms/types';
import { invitationKeys, userKeys } from '../api/users';

const emailField = (hint?: string): FieldDef => ({
  key: 'email',
  label: 'field.email',
  type: 'email',
  required: true,
  maxlength: EMAIL_MAX,
  ...(hint ? { hint } : {}),
});

/** inviteNewCompany (product §3: POST /distributors/invitations with email). */
export const inviteNewCompanyForm: FormDefinition = {
  name: 'inviteNewCompany',
  ns: 'users',
  title: { create: 'distributor.title' },
  endpoint: '/distributors/invitations',
  schema: inviteDistributorBodySchema,
  fields: [emailField('distributor.hint')],
  defaults: { email: '' },
  permission: 'manage_companies',
  invalidate: [invitationKeys.all],
  result: { item: 'result.invitation', created: 'result.sent' },
  submitLabel: 'invite.submit',
  fallbackPath: '/users/invitations',
};

/** removeUserMfa (product §3: DELETE /admin/users/mfa with email; super admin). */
export const removeUserMfaForm: FormDefinition = {
  name: 'removeUserMfa',
  ns: 'users',
  title: { create: 'admin.removeMfa' },
  endpoint: '/admin/users/mfa',
  method: 'DELETE',
  schema: adminUserEmailBodySchema,
  fields: [emailField('admin.removeMfaHint')],
  defaults: { email: '' },
  permission: 'super_admin',
  invalidate: [userKeys.all],
  confirm: {
    title: 'admin.removeMfaConfirmTitle',
    message: 'admin.removeMfaConfirm',
    confirmLabel: 'admin.removeMfaSubmit',
  },
  result: { item: 'result.mfa', created: 'result.removed' },
  submitLabel: 'admin.removeMfaSubmit',
  fallbackPath: '/users',
};

/** deleteUser (product §3: DELETE /admin/users with email; super admin). */
export const deleteUserForm: FormDefinition = {
  name: 'deleteUser',
  ns: 'users',
  title: { create: 'admin.deleteUser' },
  endpoint: '/admin/users',
  method: 'DELETE',
  schema: adminUserEmailBodySchema,
  fields: [emailField('admin.deleteUserHint')],
  defaults: { email: '' },
  permission: 'super_admin',
  invalidate: [userKeys.all],
  // product §4 destructive actions ask first, naming what is lost.
  confirm: {
    title: 'admin.deleteUserConfirmTitle',
    message: 'admin.deleteUserConfirm',
    confirmLabel: 'admin.deleteUserSubmit',
  },
  result: { item: 'result.deletedUser', created: 'result.removed' },
  submitLabel: 'admin.deleteUserSubmit',
  fallbackPath: '/users',
};

/** makeSSOAdmin (product §3: POST /admin/users/sso with email; super admin). */
export const makeSsoAdminForm: FormDefinition = {
  name: 'makeSSOAdmin',
  ns: 'users',
  title: { create: 'admin.makeSso' },
  endpoint: '/admin/users/sso',
  schema: adminUserEmailBodySchema,
  fields: [emailField('admin.makeSsoHint')],
  defaults: { email: '' },
  permission: 'super_admin',
  invalidate: [userKeys.all],
  result: { item: 'result.ssoAdmin', created: 'result.assigned' },
  submitLabel: 'admin.makeSsoSubmit',
  fallbackPath: '/users',
};
