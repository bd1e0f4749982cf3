import i18next from 'i18next';
import { type DialogName, registerDialog } from '../../lib/dialogs/registry';
import {
  DeviceActionDialog,
  type DeviceActionDialogProps,
  type DeviceBulkAction,
} from './components/DeviceActionDialog';
import { AddDeviceDialog, AddDeviceFromFileDialog, FormDialog } from './components/FormDialogs';
import { ManageTagsDialog } from './components/ManageTagsDialog';
import { cliForm, passwordForm, updateInfoForm } from './forms/device-forms';
import { TableSettingsDialog } from './table/TableSettingsDialog';

const t = (key: string, options?: Record<string, unknown>) => i18next.t(`devices:${key}`, options);

/** Dialog names of product §2 that send one device action, and the action each sends. */
export const ACTION_DIALOGS: Partial<Record<DialogName, DeviceBulkAction>> = {
  'device.reboot': 'reboot',
  'device.unregister': 'unregister',
  'device.exportBackup': 'export_backup',
  'device.exportEventLogs': 'export_event_log',
  'device.exportTroubleshoot': 'export_troubleshoot',
  'device.monitoringPeriod': 'monitoring_period',
};

type WithDevice = { id: number; name?: string };
const titled = (key: string) => (props: WithDevice) => (props.name ? `${t(key)}: ${props.name}` : t(key));

let registered = false;

/** Registers the devices feature's dialogs (product §2 Dialog system) once. */
export function registerDeviceDialogs(): void {
  if (registered) return;
  registered = true;
  registerDialog('tableSettings', TableSettingsDialog, { title: () => t('settings.title'), size: 'sm' });
  registerDialog('addDevice', AddDeviceDialog, { title: () => t('add.title') });
  registerDialog('addDeviceFromFile', AddDeviceFromFileDialog, {
    title: () => t('import.title'),
    size: 'lg',
  });
  for (const [name, action] of Object.entries(ACTION_DIALOGS) as [DialogName, DeviceBulkAction][]) {
    registerDialog(
      name,
      (props: Omit<DeviceActionDialogProps, 'action'>) => <DeviceActionDialog {...props} action={action} />,
      {
        title: (props: Omit<DeviceActionDialogProps, 'action'>) =>
          props.devices.length === 1
            ? `${t(`action.${action}`)}: ${props.devices[0]!.name}`
            : t(`action.${action}`),
        size: 'md',
      },
    );
  }
  registerDialog(
    'device.updateInfo',
    (p: WithDevice) => <FormDialog definition={updateInfoForm} id={p.id} />,
    {
      title: titled('updateInfo.title'),
    },
  );
  registerDialog(
    'device.passwordManager',
    (p: WithDevice) => <FormDialog definition={passwordForm} id={p.id} />,
    {
      title: titled('password.title'),
    },
  );
  registerDialog('device.manageTags', ManageTagsDialog, {
    title: (props: { devices: readonly { name: string }[] }) =>
      props.devices.length === 1 ? `${t('tags.title')}: ${props.devices[0]!.name}` : t('tags.title'),
    size: 'sm',
  });
  registerDialog('device.cli', (p: WithDevice) => <FormDialog definition={cliForm} id={p.id} />, {
    title: titled('cli.title'),
    size: 'lg',
  });
}
