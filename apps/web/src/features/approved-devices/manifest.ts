import i18next from 'i18next';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Approved devices (product §2 auth.devices): the table, the add form and the CSV import window. */
export const approvedDevicesFeature = defineFeature({
  pages: {
    'auth.devices': () => import('./ApprovedDevicesPage').then((m) => m.ApprovedDevicesPage),
  },
  dialogs: {
    importApprovedDevices: dialog(
      () => import('./components/ImportApprovedDevicesDialog').then((m) => m.ImportApprovedDevicesDialog),
      { title: () => i18next.t('approved-devices:import.title'), size: 'lg' },
    ),
  },
  forms: {
    newApprovedDevice: () => import('./forms/approved-device-forms').then((m) => m.newApprovedDeviceForm()),
  },
});
