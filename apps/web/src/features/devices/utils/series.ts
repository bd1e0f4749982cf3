import type { DeviceTelemetryPush } from '@fleetgate/shared/devices/events';
import type { ChartPoint } from '../api/types';
import { finite } from './format';

/** Chart data in uPlot's shape: x in seconds, then one array per series (null = gap). */
export type ChartData = [number[], ...(number | null)[][]];

export type SeriesKey = Exclude<keyof ChartPoint, 'at'>;

const seconds = (at: string) => Math.floor(Date.parse(at) / 1000);

/** The columns `keys` of `points`, time-ordered; invalid values become gaps. */
export function toChartData(points: readonly ChartPoint[], keys: readonly SeriesKey[]): ChartData {
  const sorted = [...points]
    .filter((p) => Number.isFinite(Date.parse(p.at)))
    .sort((a, b) => a.at.localeCompare(b.at));
  return [sorted.map((p) => seconds(p.at)), ...keys.map((key) => sorted.map((p) => finite(p[key])))];
}

/** A live telemetry push as a chart point (only the columns a push carries). */
export function pushToPoint(push: DeviceTelemetryPush): ChartPoint {
  return {
    at: push.at,
    signal: push.signal ?? null,
    temperature: push.temperature ?? null,
    rx_bytes: push.rx_bytes ?? null,
    tx_bytes: push.tx_bytes ?? null,
    lat: push.lat ?? null,
    lon: push.lon ?? null,
    uptime: null,
  };
}

/**
 * The fetched points plus live ones newer than the last fetched point (a refetch makes
 * older live points redundant). At most `max` live points are kept.
 */
export function withLivePoints(
  fetched: readonly ChartPoint[],
  live: readonly ChartPoint[],
  max = 2000,
): ChartPoint[] {
  const last = fetched.reduce((latest, p) => (p.at > latest ? p.at : latest), '');
  const newer = live.filter((p) => p.at > last).slice(-max);
  return [...fetched, ...newer];
}

/**
 * Data used per bucket from byte counters that only grow (docs/device-protocol.md §4.3):
 * the increase since the previous bucket, or the counter itself after a reset. The first
 * bucket has no previous value and shows no usage.
 */
export function counterDeltas(counters: readonly (number | null)[]): (number | null)[] {
  let previous: number | null = null;
  return counters.map((value) => {
    if (value === null) return null;
    const delta = previous === null ? null : value >= previous ? value - previous : value;
    previous = value;
    return delta;
  });
}

/** Track points with valid coordinates, oldest first (location history and map). */
export function trackOf(points: readonly ChartPoint[]): { lat: number; lon: number; at: string }[] {
  return points
    .filter(
      (p) =>
        finite(p.lat) !== null &&
        finite(p.lon) !== null &&
        Math.abs(p.lat!) <= 90 &&
        Math.abs(p.lon!) <= 180 &&
        !(p.lat === 0 && p.lon === 0),
    )
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((p) => ({ lat: p.lat!, lon: p.lon!, at: p.at }));
}
