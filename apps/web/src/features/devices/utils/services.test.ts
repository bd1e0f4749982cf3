import { RESOURCE_TYPES, typeNameFor } from '@fleetgate/shared/resources';
import { describe, expect, it } from 'vitest';
import type { DeviceServiceJson, ResourceTypeJson } from '../api/services';
import {
  dataPackTypes,
  offeredTypes,
  periodLeft,
  serviceTypeOptions,
  serviceTypes,
  serviceView,
  typesLeft,
} from './services';

/** GET /credits/types as the server answers it (product §6). */
const typesFor = (superAdmin: boolean): ResourceTypeJson[] =>
  RESOURCE_TYPES.filter((t) => superAdmin || t.payment_type === 'paid').map((t) => ({
    ...t,
    name: typeNameFor(t, superAdmin),
  }));

const service = (over: Partial<DeviceServiceJson> = {}): DeviceServiceJson => ({
  device_id: 5,
  company_id: 3,
  active: true,
  service_until: '2030-01-01T00:00:00.000Z',
  service_type: null,
  service_type_name: null,
  trial: true,
  auto_renew: false,
  data_packs: [],
  ...over,
});

describe('the types a device service is activated with', () => {
  it('offers the super admin every credit and management pack, free and paid, by their catalogue names', () => {
    expect(serviceTypeOptions(typesFor(true)).map((o) => o.value)).toEqual([
      'Free credits',
      'Paid credits',
      'Free management pack (3 years)',
      'Paid management pack (3 years)',
      'Free management pack (5 years)',
      'Paid management pack (5 years)',
      'Free management pack (10 years)',
      'Paid management pack (10 years)',
    ]);
  });

  it("offers everyone else the paid ones without 'Paid', never data packs or VPN hub licences", () => {
    const options = serviceTypeOptions(typesFor(false));
    expect(options.map((o) => o.value)).toEqual([
      'Credits',
      'Management pack (3 years)',
      'Management pack (5 years)',
      'Management pack (10 years)',
    ]);
    expect(options.every((o) => o.label === o.value)).toBe(true);
  });

  it("offers management packs only in 'device pack'", () => {
    expect(serviceTypes(typesFor(false), { pack: true }).map((t) => t.license_type)).toEqual([
      'management_pack',
      'management_pack',
      'management_pack',
    ]);
  });

  it("offers connection data packs as a kind of their own, never in 'device pack'", () => {
    expect(serviceTypeOptions(typesFor(false), {}, 'data_pack').map((o) => o.value)).toEqual([
      'Connection data pack (1 GB)',
      'Connection data pack (10 GB)',
    ]);
    expect(serviceTypeOptions(typesFor(true), {}, 'data_pack').map((o) => o.value)).toEqual([
      'Free connection data pack (1 GB)',
      'Paid connection data pack (1 GB)',
      'Free connection data pack (10 GB)',
      'Paid connection data pack (10 GB)',
    ]);
    expect(dataPackTypes(typesFor(false), { pack: true })).toEqual([]);
    expect(serviceTypeOptions(typesFor(false), { pack: true }, 'data_pack')).toEqual([]);
  });

  it('lists what is offered of either kind, services first (the balances beside the form)', () => {
    expect(offeredTypes(typesFor(false)).map((t) => t.id)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(offeredTypes(typesFor(false), { pack: true }).map((t) => t.id)).toEqual([4, 6, 8]);
  });

  it('keeps the catalogue order whatever order the list came in', () => {
    const reversed = [...typesFor(false)].reverse();
    expect(serviceTypes(reversed).map((t) => t.id)).toEqual([2, 4, 6, 8]);
  });
});

describe('what the company has left beside the form', () => {
  it('lists the offered types with something left, by the name the select uses', () => {
    const offered = serviceTypes(typesFor(false));
    const left = typesLeft(offered, {
      per_type: [
        { credit_type: 2, credit_type_name: 'Credits', left: 3 },
        { credit_type: 10, credit_type_name: 'Connection data pack (1 GB)', left: 4 },
        { credit_type: 6, credit_type_name: 'Management pack (5 years)', left: 1 },
      ],
    });
    expect(left).toEqual([
      { id: 2, name: 'Credits', left: 3 },
      { id: 6, name: 'Management pack (5 years)', left: 1 },
    ]);
  });

  it('is empty when nothing is left or the balances are not known', () => {
    const offered = serviceTypes(typesFor(true));
    expect(typesLeft(offered, { per_type: [] })).toEqual([]);
    expect(typesLeft(offered, undefined)).toEqual([]);
  });
});

describe("a device's service as the tab shows it", () => {
  const now = Date.parse('2026-06-01T00:00:00Z');

  it("shows an active trial as 'Trial'", () => {
    expect(serviceView(service(), now)).toEqual({ status: 'active', resumable: false, paidBy: null });
  });

  it('names the type that paid for it', () => {
    const paid = service({ trial: false, service_type: 4, service_type_name: 'Management pack (3 years)' });
    expect(serviceView(paid, now).paidBy).toBe('Management pack (3 years)');
  });

  it('may be resumed when switched off with a period left, not once the period is over', () => {
    expect(serviceView(service({ active: false }), now)).toMatchObject({ status: 'ended', resumable: true });
    const over = service({ active: false, service_until: '2026-05-31T23:59:59Z' });
    expect(serviceView(over, now)).toMatchObject({ status: 'ended', resumable: false });
    expect(periodLeft({ service_until: null }, now)).toBe(false);
    expect(periodLeft({ service_until: 'not a date' }, now)).toBe(false);
  });
});
