import type { DataPurpose } from '@fleetgate/shared/schemas/resources';
import type { DataUsageJson } from '../api/data-usage';

/** The i18n key (namespace 'resources') of what data was spent on, in words. */
export const PURPOSE_KEYS: Readonly<Record<DataPurpose, string>> = {
  remote_access: 'data.purpose.remote_access',
  vpn: 'data.purpose.vpn',
};

/** A day of the data history is one company's device and purpose: together they name the row. */
export function usageRowId(row: Pick<DataUsageJson, 'day' | 'company_id' | 'device_id' | 'purpose'>): string {
  return `${row.day}:${row.company_id}:${row.device_id ?? 0}:${row.purpose}`;
}

/** What the rows shown add up to, and the part of it relayed unpaid. */
export function usageTotals(rows: readonly Pick<DataUsageJson, 'bytes' | 'unpaid_bytes'>[]): {
  bytes: number;
  unpaid: number;
} {
  return rows.reduce(
    (sum, row) => ({ bytes: sum.bytes + row.bytes, unpaid: sum.unpaid + row.unpaid_bytes }),
    { bytes: 0, unpaid: 0 },
  );
}

const DAY_MS = 86_400_000;

/** Whole days from today (the server's day, UTC) to `day`; negative for a day gone by. */
export function daysUntil(day: string, now = new Date()): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${day}T00:00:00Z`) - today) / DAY_MS);
}

/** The overview marks a company whose data runs out within this many days. */
export const RUNS_OUT_SOON_DAYS = 7;

export function runsOutSoon(day: string | null, now = new Date()): boolean {
  return day !== null && daysUntil(day, now) <= RUNS_OUT_SOON_DAYS;
}
