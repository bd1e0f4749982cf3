import type { FormDefinition } from './types';

/**
 * The forms reachable by name: the full-page route `/forms/:form_name/:id?` (product §2)
 * and `openForm(name)`. Each loads with its feature, so the console's first page does
 * not carry every form. A product §3 form whose feature does not exist yet (newPool, newCode,
 * activateCode, buyData, movePools, uploadMulticonfigDoc) is not listed: its route answers
 * like any unknown path until the feature adds it here.
 */
const FORMS: Record<string, () => Promise<FormDefinition>> = {
  notice: () => import('../../features/notices/forms/notice-form').then((m) => m.noticeForm),
  addDevice: () => import('../../features/devices/forms/device-forms').then((m) => m.addDeviceForm()),
  addDeviceFromFile: () =>
    import('../../features/devices/forms/device-forms').then((m) => m.importDevicesForm()),
  deviceUpdateInfo: () => import('../../features/devices/forms/device-forms').then((m) => m.updateInfoForm),
  devicePassword: () => import('../../features/devices/forms/device-forms').then((m) => m.passwordForm),
  deviceMonitoringPeriod: () =>
    import('../../features/devices/forms/device-forms').then((m) => m.monitoringPeriodForm),
  deviceCli: () => import('../../features/devices/forms/device-forms').then((m) => m.cliForm),
  newCompany: () => import('../../features/companies/forms/company-forms').then((m) => m.newCompanyForm()),
  editCompany: () => import('../../features/companies/forms/company-forms').then((m) => m.editCompanyForm),
  moveCompany: () => import('../../features/companies/forms/company-forms').then((m) => m.moveCompanyForm()),
  companyFlags: () => import('../../features/companies/forms/company-forms').then((m) => m.companyFlagsForm),
  newTag: () => import('../../features/tags/forms/tag-forms').then((m) => m.newTagForm()),
  editTag: () => import('../../features/tags/forms/tag-forms').then((m) => m.editTagForm),
  newUser: () => import('../../features/users/dialogs/InviteUserDialog').then((m) => m.newUserForm),
  inviteNewCompany: () => import('../../features/users/forms/user-forms').then((m) => m.inviteNewCompanyForm),
  removeUserMfa: () => import('../../features/users/forms/user-forms').then((m) => m.removeUserMfaForm),
  deleteUser: () => import('../../features/users/forms/user-forms').then((m) => m.deleteUserForm),
  makeSSOAdmin: () => import('../../features/users/forms/user-forms').then((m) => m.makeSsoAdminForm),
  smtpConfiguration: () => import('../../features/mail/forms/mail-forms').then((m) => m.smtpForm()),
  smtpTest: () => import('../../features/mail/forms/mail-forms').then((m) => m.smtpTestForm),
  suppressEmail: () => import('../../features/mail/forms/mail-forms').then((m) => m.suppressEmailForm),
  removeFromSuppresionList: () =>
    import('../../features/mail/forms/mail-forms').then((m) => m.removeFromSuppresionListForm),
};

/** Every registered form name (tests walk them). */
export const FORM_NAMES: readonly string[] = Object.keys(FORMS);

export function isKnownForm(name: string): boolean {
  return Object.hasOwn(FORMS, name);
}

/** The definition of a named form, or null for a name nobody registered. */
export async function loadForm(name: string): Promise<FormDefinition | null> {
  const loader = Object.hasOwn(FORMS, name) ? FORMS[name] : undefined;
  return loader ? loader() : null;
}
