import { describe, expect, it } from 'vitest';
import {
  DASH,
  formatBytes,
  formatCoordinate,
  formatCurrent,
  formatPeriod,
  formatSignal,
  formatTemperature,
  formatUptime,
  formatVoltage,
  text,
} from './format';

describe('device value display (product §9 units, §8 dash for invalid values)', () => {
  it('shows bytes in base 1024', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 2)).toBe('1 MB');
    expect(formatBytes(5 * 1024 ** 3 + 1024 ** 3 / 4)).toBe('5.3 GB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TB');
    // Not 1000: 1,000,000 bytes are 976.6 KB.
    expect(formatBytes(1_000_000)).toBe('976.6 KB');
  });

  it('shows uptime in d, h, min and s, leaving out zero parts', () => {
    expect(formatUptime(0)).toBe('0s');
    expect(formatUptime(59)).toBe('59s');
    expect(formatUptime(60)).toBe('1min');
    expect(formatUptime(3661)).toBe('1h 1min 1s');
    expect(formatUptime(86_400 + 3600 + 60 + 1)).toBe('1d 1h 1min 1s');
    expect(formatUptime(3 * 86_400)).toBe('3d');
    expect(formatUptime(90.9)).toBe('1min 30s');
  });

  it('shows coordinates with 6 decimals', () => {
    expect(formatCoordinate(54.687157, 'lat')).toBe('54.687157');
    expect(formatCoordinate(25.2796521, 'lon')).toBe('25.279652');
    expect(formatCoordinate(-0.1, 'lon')).toBe('-0.100000');
    expect(formatCoordinate(0, 'lat')).toBe('0.000000');
  });

  it('shows signal in dBm, temperature in °C, analog input in V and current loop in mA', () => {
    expect(formatSignal(-71)).toBe('-71 dBm');
    expect(formatTemperature(44.46)).toBe('44.5 °C');
    expect(formatVoltage(12.4)).toBe('12.40 V');
    expect(formatCurrent(11.8)).toBe('11.80 mA');
    expect(formatPeriod(300)).toBe('5 min');
    expect(formatPeriod(1_296_000)).toBe('15 d');
  });

  it('shows a dash for every invalid value', () => {
    for (const invalid of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, 'abc', '', {}, []]) {
      expect(formatBytes(invalid)).toBe(DASH);
      expect(formatUptime(invalid)).toBe(DASH);
      expect(formatCoordinate(invalid, 'lat')).toBe(DASH);
      expect(formatSignal(invalid)).toBe(DASH);
      expect(formatTemperature(invalid)).toBe(DASH);
      expect(formatVoltage(invalid)).toBe(DASH);
    }
    expect(formatBytes(-1)).toBe(DASH);
    expect(formatUptime(-5)).toBe(DASH);
    expect(formatCoordinate(91, 'lat')).toBe(DASH);
    expect(formatCoordinate(-181, 'lon')).toBe(DASH);
    expect(formatPeriod(0)).toBe(DASH);
    expect(text('')).toBe(DASH);
    expect(text('   ')).toBe(DASH);
    expect(text(null)).toBe(DASH);
    expect(text('Telia')).toBe('Telia');
  });
});
