import type { FormDefinition } from './types';

/**
 * The forms reachable by name: the full-page route `/forms/:form_name/:id?` (spec §2)
 * and `openForm(name)`. Each loads with its feature, so the console's first page does
 * not carry every form.
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

export function isKnownForm(name: string): boolean {
  return Object.hasOwn(FORMS, name);
}

/** The definition of a named form, or null for a name nobody registered. */
export async function loadForm(name: string): Promise<FormDefinition | null> {
  const loader = Object.hasOwn(FORMS, name) ? FORMS[name] : undefined;
  return loader ? loader() : null;
}
