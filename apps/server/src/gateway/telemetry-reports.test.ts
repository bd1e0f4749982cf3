import { describe, expect, it } from 'vitest';
import { POINT_COLUMNS, type StateRecord, splitByDevice } from '../db/telemetry-copy';
import { TelemetryPreparer } from './telemetry-preparer';
import { messageTime, packReports, prepareReports, storable } from './telemetry-reports';

const received = Date.parse('2026-11-24T12:00:00Z');
const report = (deviceId: number, body: unknown, at = received) => ({
  device: { id: deviceId },
  payload: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  received: at,
});
const prepare = (reports: ReturnType<typeof report>[]) => prepareReports(packReports(reports));

const copyFields = (copy: string) =>
  copy
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));

describe('telemetry reports, prepared off the server thread', () => {
  it('successful-batch: every valid report becomes a point, each device its newest state', () => {
    const prepared = prepare([
      report(1, { at: '2026-11-24T11:59:50Z', signal: -70, data: { rx: 10, tx: 5 } }),
      report(2, {
        at: '2026-11-24T11:59:55Z',
        signal: -80,
        operator: 'Telia',
        wan: { type: 'mobile', ip: '10.0.0.2' },
      }),
      // Older than device 1's first report: a point, but not its last state.
      report(1, { at: '2026-11-24T11:59:40Z', signal: -99 }),
      report(1, { at: '2026-11-24T11:59:58Z', signal: -65, gps: { lat: 54.7, lon: 25.3 } }),
    ]);
    expect(prepared.points).toBe(4);
    expect(prepared.rejected).toEqual([]);
    const rows = copyFields(prepared.copy);
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      ['1', '2026-11-24T11:59:50.000Z', '-70'],
      ['2', '2026-11-24T11:59:55.000Z', '-80'],
      ['1', '2026-11-24T11:59:40.000Z', '-99'],
      ['1', '2026-11-24T11:59:58.000Z', '-65'],
    ]);
    // Absent values are COPY's NULL.
    expect(rows[2]!.slice(3, 9)).toEqual(['\\N', '\\N', '\\N', '\\N', '\\N', '\\N']);
    const states = JSON.parse(prepared.states) as StateRecord[];
    expect(states).toHaveLength(2);
    expect(states.find((s) => s.device_id === 1)).toMatchObject({ signal: -65, lat: 54.7, lon: 25.3 });
    expect(states.find((s) => s.device_id === 2)).toMatchObject({
      operator: 'Telia',
      wan_type: 'mobile',
      wan_ip: '10.0.0.2',
    });
    expect(prepared.live.map((l) => [l.device_id, l.signal])).toEqual([
      [1, -65],
      [2, -80],
    ]);
  });

  it('failing-reports: non-JSON, non-UTF-8, off-schema and unstorable reports are rejected by index, the rest kept', () => {
    const prepared = prepare([
      report(1, '{not json'),
      report(1, { signal: -70 }),
      { device: { id: 1 }, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), received },
      report(2, { signal: 'strong' }),
      report(2, '{"operator":"\\u0000"}'),
      report(2, '{"operator":"\\ud800"}'),
      report(2, '{"operator":"\\ud83d\\ude00"}'),
    ]);
    expect(prepared.rejected).toEqual([0, 2, 3, 4, 5]);
    expect(prepared.points).toBe(2);
    expect(copyFields(prepared.copy).map((r) => r[0])).toEqual(['1', '2']);
  });

  it('successful-series: each chart series lands in its column, in POINT_COLUMNS order; the state keeps the checked fields', () => {
    const text = JSON.stringify({
      signal: -70,
      rsrp: -95,
      rsrq: -11,
      sinr: 14.5,
      operator: 'A\\B "x"\ttab',
      io: { din: [true], ain: [12.25, 3], acl: [4.5] },
      gps: { lat: 54.68, lon: 25.27, alt: 112, speed: 40, satellites: 9 },
      firmware_extra: 7,
    });
    const prepared = prepare([report(3, text), report(3, { at: '2026-11-24T11:00:00Z' })]);
    const [full, bare] = copyFields(prepared.copy).map((fields) =>
      Object.fromEntries(POINT_COLUMNS.map((column, i) => [column, fields[i]])),
    );
    expect(full).toMatchObject({
      signal: '-70',
      lat: '54.68',
      lon: '25.27',
      rsrp: '-95',
      rsrq: '-11',
      sinr: '14.5',
    });
    expect(full).toMatchObject({ ain: '12.25', acl: '4.5', speed: '40', alt: '112', satellites: '9' });
    expect(Object.values(bare!).slice(2)).toEqual(Array(POINT_COLUMNS.length - 2).fill('\\N'));
    const [state] = JSON.parse(prepared.states) as StateRecord[];
    // Fields the schema does not know are not kept; text is the device's, unescaped (the tab
    // of one-line text neutralised to a space).
    expect(state!.payload).not.toHaveProperty('firmware_extra');
    expect(state!.operator).toBe('A\\B "x" tab');
  });

  it('successful-neutralised: text-direction and invisible characters leave the kept state, the report is not refused', () => {
    const spoofed = {
      at: '2026-11-24T11:59:50Z',
      signal: -70,
      operator: 'Te\u202elia\u200b',
      network_type: 'LTE\u2066',
      ports: [{ name: 'LAN\ufeff1', link: 'up' }],
    };
    const prepared = prepare([
      // As JSON.stringify writes it (the characters themselves) and as \u escapes.
      report(1, spoofed),
      report(
        2,
        JSON.stringify(spoofed).replace(
          /[\u200b\u202e\u2066\ufeff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16)}`,
        ),
      ),
      report(3, { signal: -71, operator: 'Bell\u0007 \u0085Canada' }),
    ]);
    expect(prepared.rejected).toEqual([]);
    const states = JSON.parse(prepared.states) as StateRecord[];
    for (const id of [1, 2]) {
      const state = states.find((s) => s.device_id === id)!;
      expect(state.operator).toBe('Telia');
      expect(state.network_type).toBe('LTE');
      expect(state.payload).toMatchObject({
        operator: 'Telia',
        network_type: 'LTE',
        ports: [{ name: 'LAN1' }],
      });
    }
    // Other control characters are replaced, so that tampering stays visible.
    expect(states.find((s) => s.device_id === 3)!.operator).toBe('Bell\uFFFD \uFFFDCanada');
  });

  it('successful-clock: a device clock more than a day off is replaced by the receive time', () => {
    const now = new Date(received);
    expect(messageTime('2026-11-24T11:00:00Z', now).toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(messageTime('2020-01-01T00:00:00Z', now)).toEqual(now);
    expect(messageTime(received / 1000 - 60, now).getTime()).toBe(received - 60_000);
    expect(messageTime(undefined, now)).toEqual(now);
    const [row] = copyFields(prepare([report(1, { at: '2030-01-01T00:00:00Z' })]).copy);
    expect(row![1]).toBe(now.toISOString());
  });

  it('successful-storable: NUL and lone surrogates are found in keys, nested values and arrays', () => {
    expect(storable({ a: ['ok', { b: 'fine 😀' }], n: 1, t: true, z: null })).toBe(true);
    expect(storable({ a: ['ok', { b: 'x\0' }] })).toBe(false);
    expect(storable({ 'k\uDC00': 1 })).toBe(false);
    expect(storable(['\uD800x'])).toBe(false);
  });

  it('successful-split: a batch cut per device keeps each device its points and state', () => {
    const prepared = prepare([
      report(1, { at: '2026-11-24T11:59:50Z', signal: -70 }),
      report(2, { at: '2026-11-24T11:59:51Z', signal: -71 }),
      report(1, { at: '2026-11-24T11:59:52Z', signal: -72 }),
    ]);
    const parts = splitByDevice(prepared);
    expect([...parts.keys()]).toEqual([1, 2]);
    expect(parts.get(1)!.points).toBe(2);
    expect(copyFields(parts.get(1)!.copy).map((r) => r[2])).toEqual(['-70', '-72']);
    expect(JSON.parse(parts.get(2)!.states)).toMatchObject([{ device_id: 2, signal: -71 }]);
  });
});

describe('telemetry worker thread', () => {
  it('successful-worker: prepares on its own thread as in-thread, and a dead worker is replaced', async () => {
    const log = { error: () => undefined } as never;
    const preparer = new TelemetryPreparer(log);
    const reports = [report(1, { signal: -70 }), report(2, '{"signal":')];
    try {
      expect(await preparer.prepare(packReports(reports))).toEqual(prepare(reports));
      // A worker that dies fails the batches it holds; the next batch starts a new one.
      const worker = (preparer as unknown as { worker: { terminate(): Promise<number> } }).worker;
      // A batch big enough to be still in the worker when it is stopped.
      const big = Array.from({ length: 20_000 }, (_, i) => report(i, { signal: -70 }));
      const held = preparer.prepare(packReports(big));
      await worker.terminate();
      await expect(held).rejects.toThrow(/telemetry worker/);
      expect((await preparer.prepare(packReports(reports))).points).toBe(1);
    } finally {
      await preparer.close();
    }
  });
});
