import { and, asc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '#src/db/database';
import { isUniqueViolation } from '#src/db/errors';
import { type RawSession, rawTransaction } from '#src/db/raw-transaction';
import { deviceState, devices, deviceTelemetry } from '#src/db/schema/devices';
import {
  type EncodedBatch,
  encodeBatch,
  POINT_COLUMNS,
  type StateRow,
  type TelemetryRow,
} from '#src/db/telemetry-copy';

export type { StateRow, TelemetryRow } from '#src/db/telemetry-copy';

/**
 * Chart values besides the main columns (docs/device-protocol.md §4.3): mobile signal
 * quality, the first analog input (V) and current loop (mA), GPS speed, altitude and
 * satellites.
 */
const SERIES = {
  rsrp: deviceTelemetry.rsrp,
  rsrq: deviceTelemetry.rsrq,
  sinr: deviceTelemetry.sinr,
  ain: deviceTelemetry.ain,
  acl: deviceTelemetry.acl,
  speed: deviceTelemetry.speed,
  alt: deviceTelemetry.alt,
  satellites: deviceTelemetry.satellites,
} as const;

const averaged = Object.fromEntries(
  Object.entries(SERIES).map(([key, column]) => [key, sql<number | null>`avg(${column})::float8`]),
) as { [K in keyof typeof SERIES]: SQL<number | null> };

const pointColumns = sql.raw(POINT_COLUMNS.join(', '));

/**
 * The last state of each device, only ever moving forward in time, and its last-seen time,
 * from the batch's states document: one statement, one round trip.
 */
function stateStatement(document: string) {
  const columns = sql.raw(
    'device_id, at, signal, temperature, uptime, operator, network_type, wan_type, wan_ip, rx_bytes, tx_bytes, lat, lon, payload',
  );
  return sql`
    with s as (
      select * from json_to_recordset(${document}::json) as r(
        device_id int, at timestamptz, signal real, temperature real, uptime int, operator text,
        network_type text, wan_type text, wan_ip text, rx_bytes bigint, tx_bytes bigint,
        lat float8, lon float8, payload jsonb)
    ), upserted as (
      insert into ${deviceState} (${columns})
      select ${columns} from s
      on conflict (device_id) do update set
        at = excluded.at, signal = excluded.signal, temperature = excluded.temperature,
        uptime = excluded.uptime, operator = excluded.operator, network_type = excluded.network_type,
        wan_type = excluded.wan_type, wan_ip = excluded.wan_ip, rx_bytes = excluded.rx_bytes,
        tx_bytes = excluded.tx_bytes, lat = excluded.lat, lon = excluded.lon, payload = excluded.payload
      where ${deviceState.at} <= excluded.at
    )
    update ${devices} set last_seen_at = greatest(${devices.lastSeenAt}, s.at)
    from s where ${devices.id} = s.device_id`;
}

/**
 * The increases of the mobile data counters at each point of `(from, to]`: the step from
 * the point before; a counter that went down (reset at reboot) counts from zero. The last
 * point before `from` counts as the first step's start when it is less than a day older
 * (a device reporting as usual); after a longer silence, what was used while it was
 * silent is not put on the period.
 */
function usageIncreases(deviceId: number, from: Date, to: Date): SQL {
  const start = from.toISOString();
  return sql`
    select at,
           case when d_rx < 0 then rx else d_rx end as rx,
           case when d_tx < 0 then tx else d_tx end as tx
    from (
      select at, rx_bytes as rx, tx_bytes as tx,
             rx_bytes - lag(rx_bytes) over w as d_rx,
             tx_bytes - lag(tx_bytes) over w as d_tx
      from ${deviceTelemetry}
      where device_id = ${deviceId} and rx_bytes is not null
        and at <= ${to.toISOString()}::timestamptz
        and at >= coalesce(
          (select max(at) from ${deviceTelemetry}
            where device_id = ${deviceId} and rx_bytes is not null and at <= ${start}::timestamptz
              and at > ${start}::timestamptz - interval '1 day'),
          ${start}::timestamptz)
      window w as (order by at)
    ) steps
    where at > ${start}::timestamptz and d_rx is not null`;
}

/** Only this file reads and writes telemetry and the last-state table. */
export const telemetryRepository = {
  /** Points and last states as rows (tests, tools): encoded, then written as writeEncoded does. */
  writeBatch(db: Db, points: TelemetryRow[], states: StateRow[]) {
    return telemetryRepository.writeEncoded(db, encodeBatch(points, states));
  },

  /**
   * Writes one encoded batch in one transaction: the points with COPY (four times cheaper
   * than an INSERT of the same rows, bench/ingest.ts), then the last state of each device
   * and its last-seen time in one statement. COPY cannot skip a (device, time) already
   * stored, so a batch repeating a stored point goes again through a temporary table and
   * INSERT … ON CONFLICT DO NOTHING.
   */
  async writeEncoded(db: Db, batch: EncodedBatch) {
    if (batch.points === 0 && batch.states === '[]') return;
    const states = async (session: Pick<RawSession, 'execute'>) => {
      if (batch.states !== '[]') await session.execute(stateStatement(batch.states));
    };
    try {
      await rawTransaction(db, async (session) => {
        // States alone when the writer sends those it kept back for a later write.
        if (batch.points > 0) await session.copy('device_telemetry', POINT_COLUMNS, batch.copy);
        await states(session);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await rawTransaction(db, async (session) => {
        await session.execute(
          sql`create temp table telemetry_incoming on commit drop as select ${pointColumns} from ${deviceTelemetry} with no data`,
        );
        await session.copy('telemetry_incoming', POINT_COLUMNS, batch.copy);
        await session.execute(
          sql`insert into ${deviceTelemetry} (${pointColumns}) select ${pointColumns} from telemetry_incoming on conflict do nothing`,
        );
        await states(session);
      });
    }
  },

  /** Raw points, or averages per bucket of `bucket` seconds, between two times. */
  async series(db: Db, deviceId: number, range: { from: Date; to: Date; bucket?: number; limit: number }) {
    const where = and(
      eq(deviceTelemetry.deviceId, deviceId),
      gte(deviceTelemetry.at, range.from),
      lte(deviceTelemetry.at, range.to),
    );
    if (!range.bucket) {
      return db
        .select({
          at: deviceTelemetry.at,
          signal: deviceTelemetry.signal,
          temperature: deviceTelemetry.temperature,
          rx_bytes: deviceTelemetry.rxBytes,
          tx_bytes: deviceTelemetry.txBytes,
          lat: deviceTelemetry.lat,
          lon: deviceTelemetry.lon,
          uptime: deviceTelemetry.uptime,
          ...SERIES,
        })
        .from(deviceTelemetry)
        .where(where)
        .orderBy(asc(deviceTelemetry.at))
        .limit(range.limit);
    }
    // A literal, not a parameter: GROUP BY must see the same expression as the SELECT.
    const seconds = sql.raw(String(Math.trunc(range.bucket)));
    const bucket = sql`to_timestamp(floor(extract(epoch from ${deviceTelemetry.at}) / ${seconds}) * ${seconds})`;
    const rows = await db
      .select({
        at: sql<string>`${bucket}`,
        signal: sql<number | null>`avg(${deviceTelemetry.signal})::float8`,
        temperature: sql<number | null>`avg(${deviceTelemetry.temperature})::float8`,
        rx_bytes: sql<number | null>`max(${deviceTelemetry.rxBytes})::float8`,
        tx_bytes: sql<number | null>`max(${deviceTelemetry.txBytes})::float8`,
        lat: sql<number | null>`(array_agg(${deviceTelemetry.lat} order by ${deviceTelemetry.at} desc))[1]`,
        lon: sql<number | null>`(array_agg(${deviceTelemetry.lon} order by ${deviceTelemetry.at} desc))[1]`,
        uptime: sql<number | null>`max(${deviceTelemetry.uptime})`,
        ...averaged,
      })
      .from(deviceTelemetry)
      .where(where)
      .groupBy(bucket)
      .orderBy(bucket)
      .limit(range.limit);
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  },

  /**
   * Mobile data used between two times: the sum of the counters' increases over the
   * period (usageIncreases), the one definition of a period's total that the metrics and
   * data-usage tabs both show.
   */
  async dataUsage(db: Db, deviceId: number, from: Date, to: Date) {
    const result = await db.execute(sql`
      select coalesce(sum(rx), 0)::text as rx, coalesce(sum(tx), 0)::text as tx
      from (${usageIncreases(deviceId, from, to)}) s`);
    const row = rowsOf<{ rx: string; tx: string }>(result)[0];
    return { rx: Number(row?.rx ?? 0), tx: Number(row?.tx ?? 0) };
  },

  /**
   * Mobile data used per calendar day of `timeZone` (the data-usage tab): the same
   * increases as dataUsage, grouped by the day they happened; the days add up to its total.
   */
  async dailyUsage(db: Db, deviceId: number, from: Date, to: Date, timeZone: string) {
    const result = await db.execute(sql`
      select to_char(date_trunc('day', at at time zone ${timeZone}), 'YYYY-MM-DD') as day,
             sum(rx)::text as rx, sum(tx)::text as tx
      from (${usageIncreases(deviceId, from, to)}) s
      group by 1 order by 1`);
    const rows = rowsOf<{ day: string; rx: string; tx: string }>(result);
    return rows.map((r) => ({ day: r.day, rx: Number(r.rx), tx: Number(r.tx) }));
  },

  /** Deletes points older than `before`, a slice at a time so the table is never locked long. */
  async deleteOlderThan(db: Db, before: Date, slice = 10_000): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await db.execute(sql`
        delete from ${deviceTelemetry} where ctid in (
          select ctid from ${deviceTelemetry} where ${lt(deviceTelemetry.at, before)} limit ${slice}
        )`);
      const n =
        (result as { affectedRows?: number; rowCount?: number }).affectedRows ??
        (result as { rowCount?: number }).rowCount ??
        0;
      total += n;
      if (n < slice) return total;
    }
  },
};
