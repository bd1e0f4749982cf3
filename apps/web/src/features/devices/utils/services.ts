import type { LicenseType } from '@fleetgate/shared/resources';
import type { FieldOption } from '#src/lib/forms/types';
import type { CompanyBalancesJson, DeviceServiceJson, ResourceTypeJson } from '../api/services';

/**
 * The rules of a device's service as the console shows it (product §2 device.services,
 * 'manage services' and 'device pack'; docs/decisions.md 'Device services').
 */

/** What 'device pack' offers: management packs only; 'manage services' offers credits too. */
export type ServicePreset = { pack?: boolean };

/**
 * What 'manage services' activates: the device's service (a credit or a management pack), or
 * data for the device (a connection data pack, kept in its data packs; the service stays as it is).
 */
export type ServiceKind = 'service' | 'data_pack';

/** Only a credit or a management pack switches a device's service on (the server refuses the rest). */
const SERVICE_LICENCES: readonly LicenseType[] = ['credit', 'management_pack'];

const ofLicences = (types: readonly ResourceTypeJson[], wanted: readonly LicenseType[]) =>
  types.filter((type) => wanted.includes(type.license_type)).sort((a, b) => a.id - b.id);

/** The types that switch a device's service on, in the catalogue's order. */
export function serviceTypes(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
): ResourceTypeJson[] {
  return ofLicences(types, preset.pack ? ['management_pack'] : SERVICE_LICENCES);
}

/** The connection data packs a device can be given; 'device pack' offers none. */
export function dataPackTypes(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
): ResourceTypeJson[] {
  return preset.pack ? [] : ofLicences(types, ['data_pack']);
}

/** Everything the form offers, of either kind (what the company's balances beside it list). */
export function offeredTypes(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
): ResourceTypeJson[] {
  return [...serviceTypes(types, preset), ...dataPackTypes(types, preset)];
}

/** The select's options: by the name GET /credits/types gives, which is what POST /services takes. */
export function serviceTypeOptions(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
  kind: ServiceKind = 'service',
): FieldOption[] {
  const offered = kind === 'data_pack' ? dataPackTypes(types, preset) : serviceTypes(types, preset);
  return offered.map((type) => ({ value: type.name, label: type.name }));
}

/** What the company has left of each type on offer, those with something left only. */
export function typesLeft(
  offered: readonly ResourceTypeJson[],
  balances: Pick<CompanyBalancesJson, 'per_type'> | undefined,
): { id: number; name: string; left: number }[] {
  const left = new Map((balances?.per_type ?? []).map((entry) => [entry.credit_type, entry.left]));
  return offered
    .map((type) => ({ id: type.id, name: type.name, left: left.get(type.id) ?? 0 }))
    .filter((entry) => entry.left > 0);
}

/** A period is left: switching the service back on is allowed (the server refuses it otherwise). */
export function periodLeft(service: Pick<DeviceServiceJson, 'service_until'>, now = Date.now()): boolean {
  if (!service.service_until) return false;
  const until = Date.parse(service.service_until);
  return Number.isFinite(until) && until > now;
}

/** How the tab shows a service: on or ended, whether it may be resumed, what paid for it. */
export function serviceView(service: DeviceServiceJson, now = Date.now()) {
  return {
    status: service.active ? ('active' as const) : ('ended' as const),
    resumable: !service.active && periodLeft(service, now),
    /** null for the trial (the tab says 'Trial'), else the type's name as the caller sees it. */
    paidBy: service.trial ? null : (service.service_type_name ?? null),
  };
}
