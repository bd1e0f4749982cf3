import { CHANNEL_NAME_PATTERN, type SubscriptionError } from '@fleetgate/shared/events';
import type { Principal } from '../modules/users/principal.repository';

/**
 * Who holds a socket: set at the handshake from the session cookie, and refreshed whenever
 * the database announces a change of access (realtime.ts recheck).
 */
export type SocketIdentity = {
  /** The user the session acts as (the impersonated user when impersonating). */
  principal: Principal;
  /** The real person when impersonating, else null. */
  actorUserId: number | null;
  sessionId: string;
};

/**
 * One row of the channel table: a name pattern and who may listen on channels of that
 * shape. A feature that publishes adds its row at start (`app.realtime.addChannelRule`),
 * e.g. the devices feature with `action.{id}` channels that only the caller who started
 * the work may follow.
 */
export type ChannelRule = {
  /** Short name for logs and tests. */
  name: string;
  /** Anchored pattern of channel names; its groups reach `authorize`. */
  pattern: RegExp;
  authorize(identity: SocketIdentity, match: RegExpExecArray): boolean | Promise<boolean>;
};

/** Product §4 Socket: a user listens to their own notifications only. */
export const notificationsRule: ChannelRule = {
  name: 'notifications',
  pattern: /^private-notifications\.(\d{1,10})$/,
  authorize: (identity, match) => Number(match[1]) === identity.principal.id,
};

export type ChannelDecision = { ok: true } | ({ ok: false } & SubscriptionError);

const refused = (code: 400 | 403, message: string): ChannelDecision => ({ ok: false, code, message });

/** The rule table: a channel no rule claims is refused (deny by default). */
export class ChannelRules {
  private readonly rules: ChannelRule[] = [];

  constructor(initial: readonly ChannelRule[] = []) {
    for (const rule of initial) this.add(rule);
  }

  add(rule: ChannelRule): void {
    const source = rule.pattern.source;
    if (!source.startsWith('^') || !source.endsWith('$')) {
      throw new Error(`Channel rule ${rule.name} must anchor its pattern with ^ and $`);
    }
    if (this.rules.some((r) => r.name === rule.name)) {
      throw new Error(`Channel rule ${rule.name} is already registered`);
    }
    this.rules.push(rule);
  }

  /** Whether `identity` may subscribe to `channel`; a refusal says why in the words the client shows. */
  async decide(identity: SocketIdentity, channel: unknown): Promise<ChannelDecision> {
    if (typeof channel !== 'string' || !CHANNEL_NAME_PATTERN.test(channel)) {
      return refused(400, 'Invalid channel name');
    }
    for (const rule of this.rules) {
      const match = rule.pattern.exec(channel);
      if (!match) continue;
      return (await rule.authorize(identity, match))
        ? { ok: true }
        : refused(403, 'You may not subscribe to this channel');
    }
    return refused(403, 'You may not subscribe to this channel');
  }
}
