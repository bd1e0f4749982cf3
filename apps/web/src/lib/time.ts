import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { userStorage } from './storage/user-storage';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The system timezone of product §2 Header widgets and §4 Timezone lives in the per-user
 * storage of product §7 (key `timezone`), so that it follows the user to every browser; it
 * is loaded before the console mounts (main.tsx). Without one, the browser's zone is used.
 */
export const TIMEZONE_STORAGE_KEY = 'timezone';

export type TimeValue = string | number | Date | Dayjs | null | undefined;

/**
 * Each zone's formatter of `YYYY-MM-DD HH:mm:ss`, or null for a name the runtime does not
 * know. Building an Intl formatter is the costly part of showing a time (a table shows one
 * per row and column, and every check of the current zone built one too), so each zone's is
 * built once.
 */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      formatter = null;
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** True when the runtime knows the IANA zone name. */
export function isTimezone(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && formatterOf(name) !== null;
}

let guessed: string | undefined;

/** The browser-guessed zone (product §4: used after 'Reset system timezone'). */
export function browserTimezone(): string {
  guessed ??= dayjs.tz.guess();
  return isTimezone(guessed) ? guessed : 'UTC';
}

// The browser's zone is read and its formatter built while the screen's code loads, not when
// the first time is shown: the first Intl formatter of a page is slow to make (a few tens of
// milliseconds on a slow machine), and a table's data would otherwise wait for it.
if (typeof window !== 'undefined') browserTimezone();

/** The zone the user saved, or null when none (or an unknown one) is stored. */
export function savedTimezone(): string | null {
  const stored = userStorage.get<unknown>(TIMEZONE_STORAGE_KEY, null);
  return isTimezone(stored) ? stored : null;
}

/** The zone every time in the console is shown in. */
export function currentTimezone(): string {
  return savedTimezone() ?? browserTimezone();
}

/** Every IANA zone name the browser knows, UTC included. */
export function timezoneNames(): string[] {
  const names = Intl.supportedValuesOf('timeZone');
  return names.includes('UTC') ? names : ['UTC', ...names];
}

/** An ISO 8601 date and time with its offset, as the API writes every time. */
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/**
 * Milliseconds since the epoch, NaN when the value is no time. Strings are read as dayjs
 * reads them (without an offset, local time); the API's, which carry one, by the browser's
 * own parser: a table shows many, and dayjs's parsing was most of a time cell's cost.
 */
function instantOf(value: Exclude<TimeValue, null | undefined>): number {
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  if (dayjs.isDayjs(value)) return value.isValid() ? value.valueOf() : Number.NaN;
  if (typeof value === 'string' && ISO_WITH_OFFSET.test(value)) return Date.parse(value);
  return dayjs(value).valueOf();
}

/**
 * Times already written, by zone and instant: a table draws its rows again on every live
 * status change, with the same times. Bounded, so a long session does not keep them all.
 */
const written = new Map<string, string>();
const WRITTEN_LIMIT = 2000;

/**
 * A time as `YYYY-MM-DD HH:mm:ss` (product §9) in the user's zone, or in `zone` when given.
 * Invalid values show a dash (product §8).
 */
export function formatTime(value: TimeValue, zone: string = currentTimezone()): string {
  if (value === null || value === undefined || value === '') return '-';
  const instant = instantOf(value);
  // NaN, or beyond the ±100 000 000 days a Date can hold.
  if (Number.isNaN(new Date(instant).getTime())) return '-';
  const key = `${zone} ${instant}`;
  const known = written.get(key);
  if (known !== undefined) return known;
  const formatter = formatterOf(zone);
  if (!formatter) throw new RangeError(`Unknown time zone: ${zone}`);
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value: text } of formatter.formatToParts(instant)) part[type] = text;
  // product §9's time format, YYYY-MM-DD HH:mm:ss (TIME_FORMAT), from the zone's parts.
  const text = `${part.year?.padStart(4, '0')}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
  if (written.size >= WRITTEN_LIMIT) written.clear();
  written.set(key, text);
  return text;
}
