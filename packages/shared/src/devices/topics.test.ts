import { describe, expect, it } from 'vitest';
import { normalizeMac, stateSchema } from './messages';
import { attemptText, deviceStatusText } from './status';
import { isSerial, parseTopic, sharedFilter, topics } from './topics';

const ID = '3f2c9a4e-8b1d-4c6e-9f0a-1b2c3d4e5f60';

describe('device topics (ARCHITECTURE §5)', () => {
  it('builds and parses every topic kind under fg/v1/d/{serial}/', () => {
    expect(topics.hello('1100001234')).toBe('fg/v1/d/1100001234/up/hello');
    expect(parseTopic(topics.hello('1100001234'))).toEqual({
      serial: '1100001234',
      direction: 'up',
      kind: 'hello',
    });
    expect(parseTopic(topics.status('AB-12'))).toMatchObject({ kind: 'status' });
    expect(parseTopic(topics.state('AB-12'))).toMatchObject({ kind: 'state' });
    expect(parseTopic(topics.event('AB-12'))).toMatchObject({ kind: 'event' });
    expect(parseTopic(topics.reply('AB-12', ID))).toEqual({
      serial: 'AB-12',
      direction: 'up',
      kind: 'reply',
      commandId: ID,
    });
    expect(parseTopic(topics.command('AB-12', ID))).toEqual({
      serial: 'AB-12',
      direction: 'down',
      kind: 'cmd',
      commandId: ID,
    });
    expect(parseTopic(topics.secret('AB-12'))).toMatchObject({ direction: 'down', kind: 'secret' });
  });

  it('refuses wildcards, other versions, bad serials and unknown kinds', () => {
    for (const topic of [
      'fg/v1/d/+/up/state',
      'fg/v1/d/#',
      'fg/v1/d/AB-12/#',
      'fg/v2/d/AB-12/up/state',
      'fg/v1/d/$SYS/up/state',
      'fg/v1/d/ab/up/state',
      'fg/v1/d/AB-12/up/telemetry',
      'fg/v1/d/AB-12/up/reply/not-a-uuid',
      'fg/v1/d/AB-12/up/state/extra',
      'fg/v1/d/AB-12/down/cmd',
      `fg/v1/d/AB-12/down/cmd/${ID}/x`,
    ]) {
      expect(parseTopic(topic), topic).toBeNull();
    }
    expect(isSerial('1100001234')).toBe(true);
    expect(isSerial('a+b#c')).toBe(false);
    expect(sharedFilter('fg/v1/d/+/up/#')).toBe('$share/fleetgate/fg/v1/d/+/up/#');
  });
});

describe('messages', () => {
  it('normalises MAC addresses', () => {
    expect(normalizeMac('00-1e-42-ab-cd-ef')).toBe('00:1E:42:AB:CD:EF');
    expect(normalizeMac('001e42abcdef')).toBe('00:1E:42:AB:CD:EF');
    expect(normalizeMac('00:1E:42:AB:CD')).toBeNull();
  });

  it('refuses telemetry out of range and accepts partial telemetry', () => {
    expect(stateSchema.safeParse({ signal: -71, temperature: 44.5 }).success).toBe(true);
    expect(stateSchema.safeParse({ signal: 20 }).success).toBe(false);
    expect(stateSchema.safeParse({ data: { rx: -1, tx: 0 } }).success).toBe(false);
    expect(stateSchema.safeParse({ gps: { lat: 91, lon: 0 } }).success).toBe(false);
  });
});

describe('texts of product §4 and §8', () => {
  it('names the device statuses', () => {
    expect([0, 1, 2, 3, 99].map(deviceStatusText)).toEqual([
      'Offline',
      'Online',
      'Pending',
      'Not Activated',
      'Not Activated',
    ]);
  });

  it('words the connection attempts by code', () => {
    for (const code of [0, 10, 12, 20, 104]) {
      expect(attemptText(code)).toBe('Device has attempted to connect to the system.');
    }
    expect(attemptText(14)).toBe('Device could not connect to the system - device Monitoring was disabled.');
    expect(attemptText(15)).toBe(
      'Device could not connect to the system - device did not have an active credit.',
    );
    expect(attemptText(7)).toBe(
      'Device could not connect to the system - there was a device with an identical serial number but different MAC address already registered.',
    );
    expect(attemptText(41)).toBe('Wrong device secret');
    expect(attemptText(99, 'Broker said no')).toBe('Broker said no');
  });
});
