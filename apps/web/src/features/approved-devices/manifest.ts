import i18next from 'i18next';
import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Every screen, window and form of the feature brings its texts (the 'approved-devices' namespace). */
const load = loaderWith('approved-devices');

/** Approved devices (product §2 auth.devices): the table, the add form and the CSV import window. */
export const approvedDevicesFeature = defineFeature({
  pages: {
    'auth.devices': () => load(() => import('./ApprovedDevicesPage')).then((m) => m.ApprovedDevicesPage),
  },
  dialogs: {
    importApprovedDevices: dialog(
      () =>
        load(() => import('./components/ImportApprovedDevicesDialog')).then(
          (m) => m.ImportApprovedDevicesDialog,
        ),
      { title: () => i18next.t('approved-devices:import.title'), size: 'lg' },
    ),
  },
  forms: {
    newApprovedDevice: () =>
      load(() => import('./forms/approved-device-forms')).then((m) => m.newApprovedDeviceForm()),
  },
});
