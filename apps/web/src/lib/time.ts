import { TIME_FORMAT } from '@fleetgate/shared/constants';
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

/** True when the runtime knows the IANA zone name. */
export function isTimezone(name: unknown): name is string {
  if (typeof name !== 'string' || name === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The browser-guessed zone (product §4: used after 'Reset system timezone'). */
export function browserTimezone(): string {
  const guessed = dayjs.tz.guess();
  return isTimezone(guessed) ? guessed : 'UTC';
}

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

/**
 * A time as `YYYY-MM-DD HH:mm:ss` (product §9) in the user's zone, or in `zone` when given.
 * Invalid values show a dash (product §8).
 */
export function formatTime(value: TimeValue, zone: string = currentTimezone()): string {
  if (value === null || value === undefined || value === '') return '-';
  const parsed = dayjs.isDayjs(value) ? value : dayjs(value);
  if (!parsed.isValid()) return '-';
  return parsed.tz(zone).format(TIME_FORMAT);
}
