/**
 * Versioned MQTT topics of the device protocol (ARCHITECTURE §5, docs/device-protocol.md).
 *
 * Every topic of a device lives under `fg/v1/d/{serial}/`. Devices publish under `up/`
 * and subscribe under `down/`; the gateway's access table (apps/server/src/gateway) is
 * built from the same kinds, so the two sides cannot drift apart.
 */

export const PROTOCOL_VERSION = 'v1';
export const TOPIC_ROOT = `fg/${PROTOCOL_VERSION}/d`;

/**
 * Serial numbers as topic segments: letters, digits, '-' and '_', 4 to 32 characters.
 * That excludes the MQTT wildcards '+' and '#', the separator '/' and a leading '$'.
 */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{3,31}$/;

/** Command ids are UUIDs chosen by the server. */
export const COMMAND_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isSerial(value: string): boolean {
  return SERIAL_PATTERN.test(value);
}

/** Message kinds a device publishes. */
export const UP_KINDS = ['hello', 'status', 'state', 'event', 'reply'] as const;
export type UpKind = (typeof UP_KINDS)[number];

/** Message kinds the server publishes to a device. */
export const DOWN_KINDS = ['cmd', 'secret'] as const;
export type DownKind = (typeof DOWN_KINDS)[number];

const base = (serial: string) => `${TOPIC_ROOT}/${serial}`;

/** Builders for every topic of the protocol. */
export const topics = {
  hello: (serial: string) => `${base(serial)}/up/hello`,
  /** Retained; the last will sets it to offline. */
  status: (serial: string) => `${base(serial)}/up/status`,
  state: (serial: string) => `${base(serial)}/up/state`,
  event: (serial: string) => `${base(serial)}/up/event`,
  reply: (serial: string, commandId: string) => `${base(serial)}/up/reply/${commandId}`,
  command: (serial: string, commandId: string) => `${base(serial)}/down/cmd/${commandId}`,
  /** The one subscription a device makes for its commands. */
  commandFilter: (serial: string) => `${base(serial)}/down/cmd/+`,
  secret: (serial: string) => `${base(serial)}/down/secret`,
} as const;

/** What the server subscribes to (all devices, every up kind). */
export const SERVER_FILTERS = {
  /** Everything devices publish. */
  up: `${TOPIC_ROOT}/+/up/#`,
  /** Status only: consumed without a shared subscription so retained values arrive (docs). */
  status: `${TOPIC_ROOT}/+/up/status`,
} as const;

/** MQTT 5 shared-subscription group of the server instances (external broker mode). */
export const SHARED_GROUP = 'fleetgate';

export function sharedFilter(filter: string, group = SHARED_GROUP): string {
  return `$share/${group}/${filter}`;
}

export type ParsedTopic =
  | { serial: string; direction: 'up'; kind: Exclude<UpKind, 'reply'> }
  | { serial: string; direction: 'up'; kind: 'reply'; commandId: string }
  | { serial: string; direction: 'down'; kind: 'cmd'; commandId: string }
  | { serial: string; direction: 'down'; kind: 'secret' };

/**
 * Parses a concrete topic (no wildcards) of the protocol; anything else is null. The
 * gateway routes and authorises on the parsed form only.
 */
export function parseTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length < 6 || parts.length > 7) return null;
  const [fg, version, d, serial, direction, kind, id] = parts;
  if (fg !== 'fg' || version !== PROTOCOL_VERSION || d !== 'd') return null;
  if (!serial || !isSerial(serial)) return null;
  if (direction === 'up') {
    if (kind === 'reply') {
      return id !== undefined && COMMAND_ID_PATTERN.test(id)
        ? { serial, direction, kind, commandId: id }
        : null;
    }
    if (id !== undefined) return null;
    if (kind === 'hello' || kind === 'status' || kind === 'state' || kind === 'event') {
      return { serial, direction, kind };
    }
    return null;
  }
  if (direction === 'down') {
    if (kind === 'cmd') {
      return id !== undefined && COMMAND_ID_PATTERN.test(id)
        ? { serial, direction, kind, commandId: id }
        : null;
    }
    if (kind === 'secret' && id === undefined) return { serial, direction, kind };
  }
  return null;
}
