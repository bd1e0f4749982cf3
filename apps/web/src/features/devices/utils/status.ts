import { deviceStatusText } from '@fleetgate/shared/devices/status';

/** The badge of a connection status (product §4: 0 Offline, 1 Online, 2 Pending, otherwise Not Activated). */
export type StatusLook = {
  key: 'online' | 'offline' | 'pending' | 'notActivated';
  /** A theme colour; the plain badge has a rule for each (components/table/cells.module.css). */
  color: 'gray' | 'green' | 'yellow' | 'red';
  text: string;
};

export function statusLook(status: number | null | undefined): StatusLook {
  const text = deviceStatusText(status);
  switch (status) {
    case 0:
      return { key: 'offline', color: 'gray', text };
    case 1:
      return { key: 'online', color: 'green', text };
    case 2:
      return { key: 'pending', color: 'yellow', text };
    default:
      return { key: 'notActivated', color: 'red', text };
  }
}
