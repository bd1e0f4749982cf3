import type { deviceState, deviceTelemetry } from './schema/devices';

/**
 * Telemetry as the database takes it, built without the database: the telemetry worker
 * (gateway/telemetry-reports.ts) encodes batches off the server's thread, and the
 * repository writes them. Type imports only, so a worker loads no driver.
 */
export type TelemetryRow = typeof deviceTelemetry.$inferInsert;
export type StateRow = typeof deviceState.$inferInsert;

/** A batch ready to write: points in COPY's text format, last states as one JSON document. */
export type EncodedBatch = {
  /** Points in `copy`, one line each. */
  points: number;
  /** `device_telemetry` rows (POINT_COLUMNS) in COPY's text format. */
  copy: string;
  /** The devices' last states: a JSON array of `stateRecord`s, one per device. */
  states: string;
};

export const POINT_COLUMNS = [
  'device_id',
  'at',
  'signal',
  'temperature',
  'uptime',
  'rx_bytes',
  'tx_bytes',
  'lat',
  'lon',
  'rsrp',
  'rsrq',
  'sinr',
  'ain',
  'acl',
  'speed',
  'alt',
  'satellites',
] as const;

const copyValue = (v: number | null | undefined) => (v === null || v === undefined ? '\\N' : String(v));

/** One point in COPY's text format: numbers and an ISO time, none of which needs escaping. */
export function pointCopyLine(p: TelemetryRow): string {
  const v = copyValue;
  return (
    `${p.deviceId}\t${(p.at as Date).toISOString()}\t${v(p.signal)}\t${v(p.temperature)}\t${v(p.uptime)}\t` +
    `${v(p.rxBytes)}\t${v(p.txBytes)}\t${v(p.lat)}\t${v(p.lon)}\t${v(p.rsrp)}\t${v(p.rsrq)}\t${v(p.sinr)}\t` +
    `${v(p.ain)}\t${v(p.acl)}\t${v(p.speed)}\t${v(p.alt)}\t${v(p.satellites)}\n`
  );
}

/** A last state as a record of the states document (`json_to_recordset`). */
export const stateRecord = (s: StateRow) => ({
  device_id: s.deviceId,
  at: (s.at as Date).toISOString(),
  signal: s.signal ?? null,
  temperature: s.temperature ?? null,
  uptime: s.uptime ?? null,
  rx_bytes: s.rxBytes ?? null,
  tx_bytes: s.txBytes ?? null,
  lat: s.lat ?? null,
  lon: s.lon ?? null,
  payload: s.payload,
  operator: s.operator ?? null,
  network_type: s.networkType ?? null,
  wan_type: s.wanType ?? null,
  wan_ip: s.wanIp ?? null,
});
export type StateRecord = ReturnType<typeof stateRecord>;

/** Points and states (at most one per device) as one batch. */
export function encodeBatch(points: readonly TelemetryRow[], states: readonly StateRow[]): EncodedBatch {
  let copy = '';
  for (const p of points) copy += pointCopyLine(p);
  return { points: points.length, copy, states: JSON.stringify(states.map(stateRecord)) };
}

/**
 * A batch cut into one batch per device (the writer's fallback when a batch fails: a device
 * unregistered meanwhile fails only its own part).
 */
export function splitByDevice(batch: EncodedBatch): Map<number, EncodedBatch> {
  const parts = new Map<number, { lines: string[]; states: StateRecord[] }>();
  const part = (deviceId: number) => {
    const own = parts.get(deviceId) ?? { lines: [], states: [] };
    parts.set(deviceId, own);
    return own;
  };
  for (const line of batch.copy.split('\n')) {
    if (line) part(Number(line.slice(0, line.indexOf('\t')))).lines.push(`${line}\n`);
  }
  for (const state of JSON.parse(batch.states) as StateRecord[]) part(state.device_id).states.push(state);
  return new Map(
    [...parts].map(([deviceId, own]) => [
      deviceId,
      { points: own.lines.length, copy: own.lines.join(''), states: JSON.stringify(own.states) },
    ]),
  );
}
