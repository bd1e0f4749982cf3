import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { browserTimezone, currentTimezone, formatTime, isTimezone, timezoneNames } from './time';

describe('times in the chosen zone (product §9 time format, §4 Timezone)', () => {
  const instant = '2025-01-15T12:34:56Z';

  it('formats as YYYY-MM-DD HH:mm:ss in the given zone', () => {
    expect(formatTime(instant, 'UTC')).toBe('2025-01-15 12:34:56');
    expect(formatTime(instant, 'Asia/Tokyo')).toBe('2025-01-15 21:34:56');
    expect(formatTime(instant, 'America/New_York')).toBe('2025-01-15 07:34:56');
  });

  it('follows daylight saving time of the zone', () => {
    expect(formatTime('2025-07-15T12:00:00Z', 'Europe/Oslo')).toBe('2025-07-15 14:00:00');
    expect(formatTime('2025-01-15T12:00:00Z', 'Europe/Oslo')).toBe('2025-01-15 13:00:00');
  });

  it('reads a time without an offset as local time, as dayjs does', () => {
    expect(formatTime('2025-01-15 12:34:56', 'UTC')).toBe(
      dayjs('2025-01-15 12:34:56').tz('UTC').format('YYYY-MM-DD HH:mm:ss'),
    );
  });

  it("reads the API's offsets, microseconds included, and keeps each zone's answer apart", () => {
    expect(formatTime('2025-01-15T14:34:56+02:00', 'UTC')).toBe('2025-01-15 12:34:56');
    expect(formatTime('2025-01-15T12:34:56.123456Z', 'UTC')).toBe('2025-01-15 12:34:56');
    expect(formatTime('2025-13-15T12:34:56Z', 'UTC')).toBe('-');
    // Written once per zone: the second zone's answer is its own, not the first one's again.
    expect(formatTime(instant, 'UTC')).toBe('2025-01-15 12:34:56');
    expect(formatTime(instant, 'Asia/Tokyo')).toBe('2025-01-15 21:34:56');
  });

  it('accepts Date objects and epoch milliseconds', () => {
    const ms = Date.parse(instant);
    expect(formatTime(new Date(ms), 'UTC')).toBe('2025-01-15 12:34:56');
    expect(formatTime(ms, 'UTC')).toBe('2025-01-15 12:34:56');
  });

  it('shows a dash for missing or invalid values (product §8)', () => {
    expect(formatTime(null, 'UTC')).toBe('-');
    expect(formatTime(undefined, 'UTC')).toBe('-');
    expect(formatTime('', 'UTC')).toBe('-');
    expect(formatTime('not a date', 'UTC')).toBe('-');
    expect(formatTime(1e20, 'UTC')).toBe('-');
    expect(formatTime(new Date(Number.NaN), 'UTC')).toBe('-');
  });

  it('uses the browser zone while nothing is saved', () => {
    expect(currentTimezone()).toBe(browserTimezone());
    expect(isTimezone(currentTimezone())).toBe(true);
  });

  it('knows IANA zone names, UTC included, and refuses unknown ones', () => {
    const names = timezoneNames();
    expect(names).toContain('UTC');
    expect(names).toContain('Europe/Oslo');
    expect(isTimezone('Europe/Oslo')).toBe(true);
    expect(isTimezone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimezone(42)).toBe(false);
  });
});

describe('formatTime across many values', () => {
  it('gives what dayjs gives for the same instant and zone, around the year and DST edges', () => {
    const zones = [
      'UTC',
      'Europe/Oslo',
      'America/New_York',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    const start = Date.UTC(2024, 2, 30, 0, 0, 0);
    for (const zone of zones) {
      for (let hour = 0; hour < 24 * 400; hour += 7) {
        const instant = start + hour * 3_600_000 + 59_999;
        expect(formatTime(instant, zone), `${zone} ${new Date(instant).toISOString()}`).toBe(
          dayjs(instant).tz(zone).format('YYYY-MM-DD HH:mm:ss'),
        );
      }
    }
  });
});
