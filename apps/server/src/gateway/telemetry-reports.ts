import { parseJson, type StateMessage, stateSchema, utf8Text } from '@fleetgate/shared/devices/messages';
import { neutralizeTexts } from '@fleetgate/shared/limits';
import {
  type EncodedBatch,
  pointCopyLine,
  type StateRecord,
  type StateRow,
  stateRecord,
  type TelemetryRow,
} from '../db/telemetry-copy';

/**
 * Telemetry reports (`up/state` payloads) from raw bytes to a batch the database takes:
 * parsed, checked against the shared schema, timed and encoded. Pure functions, run in the
 * telemetry worker (telemetry-worker.ts) so the server's thread only routes messages
 * (bench/ingest.ts: parsing, checking and encoding were a third of its time in a burst).
 */

/** A device clock further off than this is not trusted; the receive time is used instead. */
const MAX_CLOCK_SKEW_MS = 24 * 3600_000;

export function messageTime(at: string | number | undefined, received: Date): Date {
  if (at === undefined) return received;
  const t = typeof at === 'number' ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  return Number.isFinite(t) && Math.abs(t - received.getTime()) <= MAX_CLOCK_SKEW_MS ? new Date(t) : received;
}

function telemetryRow(deviceId: number, state: StateMessage, received: Date): TelemetryRow {
  return {
    deviceId,
    at: messageTime(state.at, received),
    signal: state.signal ?? null,
    temperature: state.temperature ?? null,
    uptime: state.uptime ?? null,
    rxBytes: state.data?.rx ?? null,
    txBytes: state.data?.tx ?? null,
    lat: state.gps?.lat ?? null,
    lon: state.gps?.lon ?? null,
    rsrp: state.rsrp ?? null,
    rsrq: state.rsrq ?? null,
    sinr: state.sinr ?? null,
    ain: state.io?.ain?.[0] ?? null,
    acl: state.io?.acl?.[0] ?? null,
    speed: state.gps?.speed ?? null,
    alt: state.gps?.alt ?? null,
    satellites: state.gps?.satellites ?? null,
  };
}

const stateRow = (row: TelemetryRow, message: StateMessage): StateRow => ({
  ...row,
  operator: message.operator ?? null,
  networkType: message.network_type ?? null,
  wanType: message.wan?.type ?? null,
  wanIp: message.wan?.ip ?? null,
  payload: message as Record<string, unknown>,
});

/**
 * Whether every string in a value can be stored in PostgreSQL: no NUL character and no
 * lone surrogate, which JSON may spell as `\u0000` or `\ud800` but `jsonb` and `text` refuse.
 * A report with one would fail its whole batch's write.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function storable(value: unknown): boolean {
  if (typeof value === 'string') return !UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([key, v]) => storable(key) && storable(v));
  }
  return true;
}

/** Reports as they cross to the worker: one buffer of payloads, and per report its end, device and receive time. */
export type ReportBatch = {
  bytes: Uint8Array;
  ends: Uint32Array;
  devices: Int32Array;
  received: Float64Array;
};

/** A device's newest point, pushed to its channel once written (device page charts). */
export type LiveTelemetry = Pick<
  StateRecord,
  'device_id' | 'at' | 'signal' | 'temperature' | 'rx_bytes' | 'tx_bytes' | 'lat' | 'lon'
>;

export type PreparedBatch = EncodedBatch & {
  /** Indexes of the reports that failed the schema (or were not JSON): dropped. */
  rejected: number[];
  live: LiveTelemetry[];
  /** Each device's last state as JSON, in `live`'s order (the writer may keep them for a later write). */
  stateDocs: string[];
};

/** Packs reports into one transferable batch (one copy of the payload bytes). */
export function packReports(
  reports: readonly { device: { id: number }; payload: Uint8Array; received: number }[],
): ReportBatch {
  let total = 0;
  for (const r of reports) total += r.payload.length;
  // A buffer of its own (not Buffer's shared pool), so it can be transferred, not copied.
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(reports.length);
  const devices = new Int32Array(reports.length);
  const received = new Float64Array(reports.length);
  let offset = 0;
  reports.forEach((r, i) => {
    bytes.set(r.payload, offset);
    offset += r.payload.length;
    ends[i] = offset;
    devices[i] = r.device.id;
    received[i] = r.received;
  });
  return { bytes, ends, devices, received };
}

/**
 * Parses, checks and encodes a batch: every valid report becomes a point, and each device's
 * newest point (by its own time) its last state.
 */
export function prepareReports(batch: ReportBatch): PreparedBatch {
  const rejected: number[] = [];
  const latest = new Map<number, { row: TelemetryRow; message: StateMessage }>();
  let copy = '';
  let points = 0;
  let start = 0;
  for (let i = 0; i < batch.ends.length; i++) {
    const end = batch.ends[i]!;
    const text = utf8Text(batch.bytes.subarray(start, end));
    start = end;
    const result = text === undefined ? undefined : stateSchema.safeParse(parseJson(text));
    // A \u escape may spell what PostgreSQL cannot store (checked only then: it is rare).
    if (!result?.success || (text!.includes('\\u') && !storable(result.data))) {
      rejected.push(i);
      continue;
    }
    const row = telemetryRow(batch.devices[i]!, result.data, new Date(batch.received[i]!));
    copy += pointCopyLine(row);
    points++;
    const previous = latest.get(row.deviceId);
    if (!previous || (previous.row.at as Date) <= (row.at as Date))
      latest.set(row.deviceId, { row, message: result.data });
  }
  // The last state is shown in the console (operator, network type, port names): its text is
  // neutralised, text-direction and invisible characters removed, control characters replaced.
  // Only the kept state is: points carry numbers only.
  const states = [...latest.values()].map(({ row, message }) =>
    stateRecord(stateRow(row, neutralizeTexts(message))),
  );
  const stateDocs = states.map((state) => JSON.stringify(state));
  return {
    points,
    copy,
    states: `[${stateDocs.join(',')}]`,
    stateDocs,
    rejected,
    live: states.map(({ device_id, at, signal, temperature, rx_bytes, tx_bytes, lat, lon }) => ({
      device_id,
      at,
      signal,
      temperature,
      rx_bytes,
      tx_bytes,
      lat,
      lon,
    })),
  };
}
