import type { TerminalTarget } from './terminal-socket';

/**
 * The target the address names: `?key=` (a share link), `?entry_id=` (a remote entry) or
 * `?device_id=` (the device's own service).
 */
export function targetOf(search: string): TerminalTarget | undefined {
  const params = new URLSearchParams(search);
  const key = params.get('key');
  if (key) return { key };
  const entry = Number(params.get('entry_id'));
  if (Number.isInteger(entry) && entry > 0) return { entry_id: entry };
  const device = Number(params.get('device_id') ?? params.get('device'));
  if (Number.isInteger(device) && device > 0) return { device_id: device };
  return undefined;
}
