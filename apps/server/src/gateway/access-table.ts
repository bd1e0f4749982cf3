import { PAYLOAD_LIMITS } from '@fleetgate/shared/devices/messages';
import { type ParsedTopic, parseTopic, topics } from '@fleetgate/shared/devices/topics';

/**
 * How a device session was authenticated: with its secret, or by proving serial and MAC
 * on first contact ('claim'), which only lets it fetch its secret (docs/device-protocol.md).
 */
export type SessionMode = 'secret' | 'claim';
export type DeviceSession = { serial: string; deviceId: number; companyId: number; mode: SessionMode };

type PublishRule = {
  op: 'publish';
  kind: 'hello' | 'status' | 'state' | 'event' | 'reply';
  /** The topic pattern, for the documentation and error messages. */
  pattern: string;
  modes: readonly SessionMode[];
  /** Whether the broker may keep the message as retained. */
  retain: boolean;
  maxBytes: number;
};
type SubscribeRule = {
  op: 'subscribe';
  kind: 'cmd' | 'secret';
  pattern: string;
  /** The one filter allowed, built for the session's serial: no other wildcard is accepted. */
  filter: (serial: string) => string;
  modes: readonly SessionMode[];
};
export type AccessRule = PublishRule | SubscribeRule;

const ALL: readonly SessionMode[] = ['secret', 'claim'];
const SECRET: readonly SessionMode[] = ['secret'];

/**
 * THE access table of the gateway (CONVENTIONS example 8): every topic a device may
 * publish or subscribe to, all under its own serial. Anything not here is refused.
 */
export const ACCESS_TABLE: readonly AccessRule[] = [
  {
    op: 'publish',
    kind: 'hello',
    pattern: 'fg/v1/d/{serial}/up/hello',
    modes: ALL,
    retain: false,
    maxBytes: PAYLOAD_LIMITS.hello,
  },
  {
    op: 'publish',
    kind: 'status',
    pattern: 'fg/v1/d/{serial}/up/status',
    modes: ALL,
    retain: true,
    maxBytes: PAYLOAD_LIMITS.status,
  },
  {
    op: 'publish',
    kind: 'state',
    pattern: 'fg/v1/d/{serial}/up/state',
    modes: SECRET,
    retain: false,
    maxBytes: PAYLOAD_LIMITS.state,
  },
  {
    op: 'publish',
    kind: 'event',
    pattern: 'fg/v1/d/{serial}/up/event',
    modes: SECRET,
    retain: false,
    maxBytes: PAYLOAD_LIMITS.event,
  },
  {
    op: 'publish',
    kind: 'reply',
    pattern: 'fg/v1/d/{serial}/up/reply/{commandId}',
    modes: SECRET,
    retain: false,
    maxBytes: PAYLOAD_LIMITS.reply,
  },
  {
    op: 'subscribe',
    kind: 'cmd',
    pattern: 'fg/v1/d/{serial}/down/cmd/+',
    filter: topics.commandFilter,
    modes: SECRET,
  },
  {
    op: 'subscribe',
    kind: 'secret',
    pattern: 'fg/v1/d/{serial}/down/secret',
    filter: topics.secret,
    modes: ALL,
  },
];

const publishRules = ACCESS_TABLE.filter((r): r is PublishRule => r.op === 'publish');
const subscribeRules = ACCESS_TABLE.filter((r): r is SubscribeRule => r.op === 'subscribe');

export type PublishDecision =
  | { allowed: true; rule: PublishRule; topic: ParsedTopic }
  | { allowed: false; reason: string };

/** May this session publish on this topic? */
export function canPublish(session: Pick<DeviceSession, 'serial' | 'mode'>, topic: string): PublishDecision {
  const parsed = parseTopic(topic);
  if (parsed?.direction !== 'up') return { allowed: false, reason: 'topic outside the device protocol' };
  if (parsed.serial !== session.serial) return { allowed: false, reason: 'topic of another device' };
  const rule = publishRules.find((r) => r.kind === parsed.kind);
  if (!rule?.modes.includes(session.mode)) {
    return { allowed: false, reason: `not allowed before the device has its secret: ${parsed.kind}` };
  }
  return { allowed: true, rule, topic: parsed };
}

/** May this session subscribe to this filter? Only the exact filters of the table match. */
export function canSubscribe(session: Pick<DeviceSession, 'serial' | 'mode'>, filter: string): boolean {
  return subscribeRules.some((r) => r.modes.includes(session.mode) && r.filter(session.serial) === filter);
}

/** May this session receive a message on this concrete topic (what its filters let through)? */
export function canReceive(session: Pick<DeviceSession, 'serial' | 'mode'>, topic: string): boolean {
  const parsed = parseTopic(topic);
  if (parsed?.direction !== 'down' || parsed.serial !== session.serial) return false;
  return subscribeRules.some((r) => r.kind === parsed.kind && r.modes.includes(session.mode));
}

/** The publish rule of a message kind (payload limits for the external-broker path). */
export function publishRuleOf(kind: PublishRule['kind']): PublishRule {
  return publishRules.find((r) => r.kind === kind)!;
}
