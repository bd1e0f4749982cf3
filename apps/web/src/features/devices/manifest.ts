import i18next from 'i18next';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';
import type { FormDefinition } from '#src/lib/forms/types';
import type { DeviceBulkAction } from './components/DeviceActionDialog';
import { actionTitle, devicesTitle, deviceTitle, withAction, withForm } from './dialogs';

const actionDialog = (action: DeviceBulkAction) =>
  dialog(
    () => import('./components/DeviceActionDialog').then((m) => withAction(m.DeviceActionDialog, action)),
    { title: actionTitle(action) },
  );

const formDialog = (
  pick: (forms: typeof import('./forms/device-forms')) => FormDefinition,
  titleKey: string,
  size?: 'lg',
) =>
  dialog(
    () =>
      Promise.all([import('./components/FormDialogs'), import('./forms/device-forms')]).then(([d, f]) =>
        withForm(d.FormDialog, pick(f)),
      ),
    { title: deviceTitle(titleKey), ...(size ? { size } : {}) },
  );

const metrics = () => import('./device/MetricsTab').then((m) => m.MetricsTab);
const forms = () => import('./forms/device-forms');
const serviceForms = () => import('./forms/service-forms');
const servicesDialogs = () => import('./components/ManageServicesDialog');

/** The devices table, the device page and its tabs, the device dialogs and forms (product §2). */
export const devicesFeature = defineFeature({
  pages: {
    'management.devices': () => import('./table/DevicesPage').then((m) => m.DevicesPage),
    'device.activity': () => import('./device/ActivityTab').then((m) => m.ActivityTab),
    'device.location': () => import('./device/LocationTab').then((m) => m.LocationTab),
    'device.data-usage': () => import('./device/DataUsageTab').then((m) => m.DataUsageTab),
    'device.ports': () => import('./device/PortsTab').then((m) => m.PortsTab),
    'device.services': () => import('./device/ServicesTab').then((m) => m.ServicesTab),
    'device.metrics.dynamic': metrics,
    'device.metrics.mobile-data': metrics,
    'device.metrics.io': metrics,
    'device.metrics.gps': metrics,
  },
  tabFrames: {
    'device.info': () => import('./device/UnavailableTab').then((m) => m.UnavailableTab),
  },
  dialogs: {
    tableSettings: dialog(() => import('./table/TableSettingsDialog').then((m) => m.TableSettingsDialog), {
      title: () => i18next.t('devices:settings.title'),
      size: 'sm',
    }),
    addDevice: dialog(() => import('./components/FormDialogs').then((m) => m.AddDeviceDialog), {
      title: () => i18next.t('devices:add.title'),
    }),
    addDeviceFromFile: dialog(
      () => import('./components/FormDialogs').then((m) => m.AddDeviceFromFileDialog),
      {
        title: () => i18next.t('devices:import.title'),
        size: 'lg',
      },
    ),
    'device.reboot': actionDialog('reboot'),
    'device.unregister': actionDialog('unregister'),
    'device.exportBackup': actionDialog('export_backup'),
    'device.exportEventLogs': actionDialog('export_event_log'),
    'device.exportTroubleshoot': actionDialog('export_troubleshoot'),
    'device.monitoringPeriod': actionDialog('monitoring_period'),
    'device.updateInfo': formDialog((f) => f.updateInfoForm, 'updateInfo.title'),
    'device.passwordManager': formDialog((f) => f.passwordForm, 'password.title'),
    'device.cli': formDialog((f) => f.cliForm, 'cli.title', 'lg'),
    'device.manageServices': dialog(() => servicesDialogs().then((m) => m.ManageServicesDialog), {
      title: deviceTitle('services.manage'),
      size: 'lg',
    }),
    'device.pack': dialog(() => servicesDialogs().then((m) => m.DevicePackDialog), {
      title: deviceTitle('services.pack'),
      size: 'lg',
    }),
    'device.bulkServices': dialog(
      () => import('./components/BulkServicesDialog').then((m) => m.BulkServicesDialog),
      { title: devicesTitle('services.manage'), size: 'lg' },
    ),
    'device.moveResources': dialog(
      () =>
        Promise.all([import('./components/FormDialogs'), serviceForms()]).then(([d, f]) =>
          withForm(d.FormDialog, f.moveDeviceResourcesForm),
        ),
      { title: deviceTitle('move.title') },
    ),
    'device.manageTags': dialog(
      () => import('./components/ManageTagsDialog').then((m) => m.ManageTagsDialog),
      {
        title: devicesTitle('tags.title'),
        size: 'sm',
      },
    ),
  },
  forms: {
    addDevice: () => forms().then((m) => m.addDeviceForm()),
    addDeviceFromFile: () => forms().then((m) => m.importDevicesForm()),
    deviceUpdateInfo: () => forms().then((m) => m.updateInfoForm),
    devicePassword: () => forms().then((m) => m.passwordForm),
    deviceMonitoringPeriod: () => forms().then((m) => m.monitoringPeriodForm),
    deviceCli: () => forms().then((m) => m.cliForm),
    deviceServices: () => serviceForms().then((m) => m.loadManageServicesForm()),
    devicePack: () => serviceForms().then((m) => m.loadManageServicesForm({ pack: true })),
    moveDeviceResources: () => serviceForms().then((m) => m.moveDeviceResourcesForm),
  },
});
