import { describe, expect, it } from 'vitest';
import type { DeviceServiceJson } from '../api/services';
import { DAYS, deviceLabel, deviceOptions, movableDays, resourceChoices } from './move-resources';

const now = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

const service = (over: Partial<DeviceServiceJson> = {}): DeviceServiceJson => ({
  device_id: 5,
  company_id: 3,
  active: true,
  service_until: new Date(now + 12.5 * DAY).toISOString(),
  service_type: 2,
  service_type_name: 'Credits',
  trial: false,
  auto_renew: false,
  data_packs: [],
  ...over,
});

describe("a credit's days that may move to another device", () => {
  it('counts the whole days left of an active credit, as the server does', () => {
    expect(movableDays(service(), now)).toEqual({ days: 12, block: null });
    expect(movableDays(service({ service_type: 1, service_type_name: 'Free credits' }), now)).toEqual({
      days: 12,
      block: null,
    });
  });

  it('moves nothing of an ended service, a trial or a management pack, and says which', () => {
    expect(movableDays(service({ active: false }), now).block).toBe('ended');
    expect(
      movableDays(service({ trial: true, service_type: null, service_type_name: null }), now).block,
    ).toBe('trial');
    expect(
      movableDays(service({ service_type: 4, service_type_name: 'Management pack (3 years)' }), now),
    ).toEqual({ days: 0, block: 'pack' });
  });

  it('moves nothing when less than a whole day is left', () => {
    const short = service({ service_until: new Date(now + 0.9 * DAY).toISOString() });
    expect(movableDays(short, now)).toEqual({ days: 0, block: 'underDay' });
    expect(movableDays(service({ service_until: null }), now).block).toBe('underDay');
  });
});

describe('what the move form offers', () => {
  it("offers the credit's days first, then each data pack the device holds by its name", () => {
    const choices = resourceChoices(
      service({
        data_packs: [
          { credit_type: 10, credit_type_name: 'Connection data pack (1 GB)', left: 2 },
          { credit_type: 12, credit_type_name: 'Connection data pack (10 GB)', left: 0 },
        ],
      }),
      now,
    );
    expect(choices).toEqual([
      { kind: 'days', value: DAYS, days: 12, block: null },
      { kind: 'data_pack', value: 'Connection data pack (1 GB)', left: 2 },
    ]);
  });

  it('offers the days unblocked while the source is not known (the server says why not)', () => {
    expect(resourceChoices(undefined, now)).toEqual([{ kind: 'days', value: DAYS, days: 0, block: null }]);
  });

  it('blocks the days of a trial but still offers its data packs', () => {
    const trial = service({
      trial: true,
      service_type: null,
      data_packs: [{ credit_type: 9, credit_type_name: 'Free connection data pack (1 GB)', left: 1 }],
    });
    expect(resourceChoices(trial, now).map((c) => [c.value, c.kind === 'days' ? c.block : c.left])).toEqual([
      [DAYS, 'trial'],
      ['Free connection data pack (1 GB)', 1],
    ]);
  });
});

describe('the devices selector', () => {
  const quay = { id: 1, name: 'Quay router', serial: '1100000001' };
  const dock = { id: 2, name: 'Dock router', serial: '1100000002' };

  it('names a device by name and serial, by serial alone when it has no name', () => {
    expect(deviceLabel(quay)).toBe('Quay router (1100000001)');
    expect(deviceLabel({ id: 3, name: ' ', serial: '1100000003' })).toBe('1100000003');
  });

  it('lists the known devices and what the search found once each, never the excluded one', () => {
    expect(deviceOptions([[quay], [dock, quay]])).toEqual([
      { value: '1', label: 'Quay router (1100000001)' },
      { value: '2', label: 'Dock router (1100000002)' },
    ]);
    expect(deviceOptions([[quay], [dock, quay]], 1)).toEqual([
      { value: '2', label: 'Dock router (1100000002)' },
    ]);
  });
});
