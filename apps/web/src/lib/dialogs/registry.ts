import { type ComponentType, createElement, type ReactNode } from 'react';
import type { WindowSize } from './windows-state';

/**
 * The named dialogs of product §2 Dialog system. Features register a component under one
 * of these names when they build it; opening a name nobody registered is a programming
 * error and throws.
 */
export const DIALOG_NAMES = [
  // Device
  'device.unregister',
  'device.updateInfo',
  'device.exportBackup',
  'device.exportEventLogs',
  'device.exportTroubleshoot',
  'device.reboot',
  'device.manageServices',
  'device.devicePack',
  'device.monitoringPeriod',
  'device.deviceAccess',
  'device.manageTags',
  'device.passwordManager',
  'device.taskManager',
  'device.cancelPendingUpdates',
  'device.periodicBackups',
  'device.vpnConfig',
  'device.siteBlocking',
  'device.dynamicDns',
  'device.deviceAlerts',
  'device.cli',
  'device.webUi',
  'device.portInfo',
  'device.locationHistory',
  'device.wifiChart',
  'device.wifiQrCode',
  'device.esimConfiguration',
  'device.uploadToDevice',
  'device.testEndpoint',
  // Other
  'addDevice',
  'addDeviceFromFile',
  'addRemote',
  'addVpn',
  'addVpnQuickConnect',
  'newReport',
  'createAlert',
  'createDashboard',
  'newCompany',
  'editCompany',
  'manageCompanyFlags',
  'newRole',
  'editUserRole',
  'rolePermissions',
  'moveDevices',
  'moveUsers',
  'moveDeviceResources',
  'smtpConfiguration',
  'terms',
  'dataAgreement',
  'creditReport',
  'imageGallery',
  'notes',
  'notices',
  'multiConfig',
  'multiConfigLogs',
  'configurationTemplates',
  'jsonViewer',
  'tableSettings',
  // The dialog system's own (product §4 'Action status', §8 'Error')
  'error',
  'actionStatus',
] as const;
export type DialogName = (typeof DIALOG_NAMES)[number];

export type DialogProps = Record<string, unknown>;

export type RegisteredDialog = {
  render(props: DialogProps): ReactNode;
  /** The window title for these props (already translated). */
  title(props: DialogProps): ReactNode;
  size: WindowSize;
};

const registry = new Map<DialogName, RegisteredDialog>();

/**
 * Registers the component behind a dialog name. `title` may read the props (e.g. a
 * device's name). Registering a name again replaces the earlier one (hot reload).
 */
export function registerDialog<P extends object>(
  name: DialogName,
  component: ComponentType<P>,
  options: { title: ReactNode | ((props: P) => ReactNode); size?: WindowSize },
): void {
  const { title } = options;
  registry.set(name, {
    render: (props) => createElement(component, props as P),
    title: (props) => (typeof title === 'function' ? title(props as P) : title),
    size: options.size ?? 'md',
  });
}

export function registeredDialog(name: DialogName): RegisteredDialog {
  const entry = registry.get(name);
  if (!entry) throw new Error(`Dialog "${name}" is not registered`);
  return entry;
}

export function isRegistered(name: DialogName): boolean {
  return registry.has(name);
}
