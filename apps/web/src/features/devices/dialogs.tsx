import i18next from 'i18next';
import type { ComponentType } from 'react';
import type { FormDefinition } from '#src/lib/forms/types';
import type { DeviceActionDialogProps, DeviceBulkAction } from './components/DeviceActionDialog';

/** Dialog names of product §2 that send one device action, and the action each sends. */
export const ACTION_DIALOGS = {
  'device.reboot': 'reboot',
  'device.unregister': 'unregister',
  'device.exportBackup': 'export_backup',
  'device.exportEventLogs': 'export_event_log',
  'device.exportTroubleshoot': 'export_troubleshoot',
  'device.monitoringPeriod': 'monitoring_period',
} as const satisfies Record<string, DeviceBulkAction>;

export type ActionDialogProps = Omit<DeviceActionDialogProps, 'action'>;
export type WithDevice = { id: number; name?: string };

const t = (key: string, options?: Record<string, unknown>) => i18next.t(`devices:${key}`, options);

/** 'Reboot: Harbour gateway' for one device, 'Reboot' for a selection. */
export const actionTitle = (action: DeviceBulkAction) => (props: ActionDialogProps) =>
  props.devices.length === 1 ? `${t(`action.${action}`)}: ${props.devices[0]!.name}` : t(`action.${action}`);

/** 'Manage tags: Harbour gateway' for one device, 'Manage tags' for a selection. */
export const devicesTitle = (key: string) => (props: { devices: readonly { name: string }[] }) =>
  props.devices.length === 1 ? `${t(key)}: ${props.devices[0]!.name}` : t(key);

/** A title naming the one device the dialog is for, when the opener knows its name. */
export const deviceTitle = (key: string) => (props: WithDevice) =>
  props.name ? `${t(key)}: ${props.name}` : t(key);

/** The action dialog bound to one action: one component per dialog name. */
export function withAction(
  Dialog: ComponentType<DeviceActionDialogProps>,
  action: DeviceBulkAction,
): ComponentType<ActionDialogProps> {
  return (props) => <Dialog {...props} action={action} />;
}

/** A device's form in a named dialog window. */
export function withForm(
  FormDialog: ComponentType<{ definition: FormDefinition; id?: number | string; name?: string }>,
  definition: FormDefinition,
): ComponentType<WithDevice> {
  return (props) => <FormDialog definition={definition} id={props.id} name={props.name} />;
}
