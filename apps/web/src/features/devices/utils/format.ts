/**
 * Display of device values (product §9 units, §8 'Invalid values show a dash'). Every
 * function answers DASH for a value that is missing or not a finite number, so a cell
 * never shows `NaN`, `undefined` or `null`.
 */

export const DASH = '-';

/** A finite number, or null for anything else (strings of digits count). */
export function finite(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Text as reported, or a dash when empty (device-reported strings are shown as text only). */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim() === '' ? DASH : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return DASH;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in base 1024 (product §9): 1536 → '1.5 KB'. Negative counts are invalid. */
export function formatBytes(value: unknown, decimals = 1): string {
  const n = finite(value);
  if (n === null || n < 0) return DASH;
  let unit = 0;
  let amount = n;
  while (amount >= 1024 && unit < BYTE_UNITS.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(Math.round(amount)) : amount.toFixed(decimals).replace(/\.0+$/, '');
  return `${shown} ${BYTE_UNITS[unit]}`;
}

/** Uptime in d, h, min, s (product §9): 90061 → '1d 1h 1min 1s'; zero parts are left out. */
export function formatUptime(value: unknown): string {
  const n = finite(value);
  if (n === null || n < 0) return DASH;
  let rest = Math.floor(n);
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const parts = [
    days ? `${days}d` : '',
    hours ? `${hours}h` : '',
    minutes ? `${minutes}min` : '',
    seconds || (!days && !hours && !minutes) ? `${seconds}s` : '',
  ].filter(Boolean);
  return parts.join(' ');
}

/** A coordinate with 6 decimals (product §9); out of range is invalid. */
export function formatCoordinate(value: unknown, kind: 'lat' | 'lon'): string {
  const n = finite(value);
  const limit = kind === 'lat' ? 90 : 180;
  if (n === null || Math.abs(n) > limit) return DASH;
  return n.toFixed(6);
}

/** A number with its unit: signal in dBm, temperature in °C, analog in V, current loop in mA (product §9). */
export function formatUnit(value: unknown, unit: string, decimals = 0): string {
  const n = finite(value);
  if (n === null) return DASH;
  const shown = decimals === 0 ? String(Math.round(n)) : n.toFixed(decimals);
  return `${shown} ${unit}`;
}

export const formatSignal = (value: unknown) => formatUnit(value, 'dBm');
export const formatTemperature = (value: unknown) => formatUnit(value, '°C', 1);
export const formatVoltage = (value: unknown) => formatUnit(value, 'V', 2);
export const formatCurrent = (value: unknown) => formatUnit(value, 'mA', 2);

/** A monitoring period in seconds as the largest whole unit ('5 min', '15 d'), for labels. */
export function formatPeriod(value: unknown): string {
  const n = finite(value);
  if (n === null || n <= 0) return DASH;
  if (n % 86_400 === 0) return `${n / 86_400} d`;
  if (n % 3600 === 0) return `${n / 3600} h`;
  if (n % 60 === 0) return `${n / 60} min`;
  return `${n} s`;
}
