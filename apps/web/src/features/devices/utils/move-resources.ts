import { CREDIT_TYPE_IDS } from '@fleetgate/shared/resources';
import type { FieldOption } from '#src/lib/forms/types';
import type { DeviceOption } from '../api/devices';
import type { DeviceServiceJson } from '../api/services';

/**
 * The rules of 'move device resources' (product §2 dialog; POST /devices/credits/move) as the
 * console offers them: a credit's remaining whole days, or one unused connection data pack.
 */

/** The `resource` sent for a credit's remaining days; a data pack is sent by its type's name. */
export const DAYS = 'days';

const DAY_MS = 86_400_000;

/**
 * Why a device's days cannot move, as the server would refuse them: the service is off, it is
 * the trial, a management pack paid for it (it stays with its device), or less than a day is left.
 */
export type DaysBlock = 'ended' | 'trial' | 'pack' | 'underDay';

type ServiceState = Pick<DeviceServiceJson, 'active' | 'trial' | 'service_type' | 'service_until'>;

/** The whole days of an active credit a device may pass on (counted as the server counts them), or why none. */
export function movableDays(
  service: ServiceState,
  now = Date.now(),
): { days: number; block: DaysBlock | null } {
  if (!service.active) return { days: 0, block: 'ended' };
  if (service.trial || service.service_type === null) return { days: 0, block: 'trial' };
  if (!CREDIT_TYPE_IDS.includes(service.service_type)) return { days: 0, block: 'pack' };
  const until = service.service_until ? Date.parse(service.service_until) : Number.NaN;
  const days = Number.isFinite(until) ? Math.floor((until - now) / DAY_MS) : 0;
  return days >= 1 ? { days, block: null } : { days: 0, block: 'underDay' };
}

/** One thing the form offers to move: the credit's days, or a data pack type the device holds. */
export type ResourceChoice =
  | { kind: 'days'; value: typeof DAYS; days: number; block: DaysBlock | null }
  | { kind: 'data_pack'; value: string; left: number };

/**
 * What may move from a device: its credit's days first (blocked, with the reason, when they
 * cannot), then each connection data pack it holds, by the name the caller sees. While the
 * source's service is not known the days are offered unblocked: the server says why not.
 */
export function resourceChoices(service: DeviceServiceJson | undefined, now = Date.now()): ResourceChoice[] {
  const days = service ? movableDays(service, now) : { days: 0, block: null };
  const packs = (service?.data_packs ?? [])
    .filter((pack) => pack.left > 0)
    .map((pack): ResourceChoice => ({ kind: 'data_pack', value: pack.credit_type_name, left: pack.left }));
  return [{ kind: 'days', value: DAYS, ...days }, ...packs];
}

/** A device as a selector names it: its name and serial, the serial alone when it has no name. */
export function deviceLabel(device: DeviceOption): string {
  const name = device.name.trim();
  return name ? `${name} (${device.serial})` : device.serial;
}

/**
 * A device selector's options: the devices it must show (the preset, the chosen one) and what
 * the search found, each once, without `exclude` (the target never offers the source).
 */
export function deviceOptions(
  lists: readonly (readonly DeviceOption[])[],
  exclude: number | null = null,
): FieldOption[] {
  const all = new Map<number, DeviceOption>();
  for (const list of lists) for (const device of list) if (!all.has(device.id)) all.set(device.id, device);
  return [...all.values()]
    .filter((device) => device.id !== exclude)
    .map((device) => ({ value: String(device.id), label: deviceLabel(device) }));
}
