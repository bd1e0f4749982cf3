import { SOCKET } from '@fleetgate/shared/constants';
import type {
  ChannelEventName,
  ChannelEvents,
  ClientToServerEvents,
  ServerToClientEvents,
  SubscribeAck,
} from '@fleetgate/shared/events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server, type Socket } from 'socket.io';
import { BLOCK_MESSAGES } from '../modules/account/account-state';
import { blockOf, type Caller, callerOfSession } from '../modules/auth/caller';
import {
  ACCESS_CHANNEL,
  type AccessChange,
  concerns,
  parseAccessChange,
  type WatchedSocket,
} from './access-watch';
import { type ChannelRule, ChannelRules, notificationsRule } from './channels';
import { handshakeRefusal, identify, socketOriginAllowed } from './handshake';
import { connectRedisAdapter, type RedisLink } from './redis';

/** What the server keeps per socket: who holds it, and when its session ends unless used. */
type SocketData = WatchedSocket & { endsAt: number };
type AppServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Channels one socket may hold at once: a console page follows a handful. */
export const MAX_CHANNELS_PER_SOCKET = 200;
/** How often sockets are checked against the end of their session (expiry, idleness). */
const SESSION_SWEEP_MS = 5_000;
/** Access changes arriving this close together are re-checked in one pass. */
const RECHECK_BATCH_MS = 50;

/** The realtime service other features use (CONVENTIONS example 7: a typed decorator). */
export type Realtime = {
  /**
   * Sends `event` to every browser subscribed to `channel`, on any instance when Redis
   * links them (ARCHITECTURE §1). Fire and forget: a channel nobody follows drops it.
   */
  publish<E extends ChannelEventName>(channel: string, event: E, payload: ChannelEvents[E]): void;
  /** Adds a row to the channel table (see channels.ts). */
  addChannelRule(rule: ChannelRule): void;
  /** Drops this instance's sockets of a session (sign-out, revocation). */
  disconnectSession(sessionId: string): void;
  /** Sockets connected to this instance. */
  connectedCount(): number;
  /** Closes the socket.io server and its Redis link (app.ts onClose, after HTTP). */
  close(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** What a socket keeps of its caller (auth/caller.ts). */
function socketDataOf(caller: Caller, endsAt: Date): SocketData {
  return {
    principal: caller.principal,
    actorUserId: caller.actor?.id ?? null,
    actorRoleId: caller.actor?.role.id ?? null,
    sessionId: caller.session.id,
    endsAt: endsAt.getTime(),
  };
}

function acknowledge<T>(ack: unknown, value: T): void {
  // A hostile client may send anything where the acknowledgement belongs.
  if (typeof ack === 'function') (ack as (value: T) => void)(value);
}

/**
 * socket.io at /status/socket.io (product §7, ARCHITECTURE §1): the handshake needs a live
 * session cookie and an acceptable Origin; clients subscribe to channels the rule table
 * allows; services publish with `app.realtime.publish`.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance) => {
    const rules = new ChannelRules([notificationsRule]);
    let redis: RedisLink | undefined;

    const io: AppServer = new Server(app.server, {
      path: SOCKET.path,
      serveClient: false,
      // The browser client (lib/socket) times the handshake out after SOCKET.timeoutMs.
      connectTimeout: SOCKET.timeoutMs,
      maxHttpBufferSize: 64 * 1024,
      allowRequest: (request, callback) => {
        const allowed = socketOriginAllowed(request, app.config.publicUrl);
        callback(allowed ? null : 'Origin not allowed', allowed);
      },
    });

    if (app.config.redisUrl) {
      redis = await connectRedisAdapter(app.config.redisUrl, app.config.redisPrefix, app.log);
      io.adapter(redis.adapter);
    }

    io.use(async (socket, next) => {
      try {
        // The same answer as HTTP's (auth/caller.ts): a live session, a user who still
        // exists, an impersonation that still passes its rule, no blocking condition.
        const caller = await identify(app, socket.request);
        if (!caller) return next(handshakeRefusal(401, 'Authentication required'));
        const block = blockOf(caller);
        if (block) return next(handshakeRefusal(403, BLOCK_MESSAGES[block]));
        socket.data = socketDataOf(caller, app.authService.endOf(caller.session));
        next();
      } catch (error) {
        app.log.error({ err: error }, 'socket handshake failed');
        next(handshakeRefusal(401, 'Authentication failed'));
      }
    });

    io.on('connection', (socket: AppSocket) => {
      socket.on('subscribe', async (channel, ack) => {
        try {
          const decision =
            socket.rooms.size > MAX_CHANNELS_PER_SOCKET
              ? ({ ok: false, code: 403, message: 'Too many channels on one connection' } as const)
              : await rules.decide(socket.data, channel);
          // Access may have changed while the rule was deciding: a re-check that ran
          // meanwhile has dropped the socket, or will see this room.
          if (decision.ok && !socket.connected) return;
          if (decision.ok) await socket.join(channel);
          else {
            // product §4: the client unsubscribes on a subscription_error with code 403.
            socket.emit('subscription_error', typeof channel === 'string' ? channel : '', {
              code: decision.code,
              message: decision.message,
            });
          }
          acknowledge<SubscribeAck>(ack, decision);
        } catch (error) {
          app.log.error({ err: error }, 'socket subscribe failed');
        }
      });
      socket.on('unsubscribe', async (channel, ack) => {
        // A socket's own room (its id) is not a channel; leaving it would break direct sends.
        if (typeof channel === 'string' && channel !== socket.id) await socket.leave(channel);
        acknowledge(ack, { ok: true });
      });
    });

    /**
     * Re-checks sockets against current access: a socket whose session no longer stands
     * for anyone (revoked, expired, idle, user deleted, impersonation over) or whose user
     * is now blocked is dropped; otherwise its identity is refreshed and every channel it
     * holds is decided again, and the ones now refused are left with a subscription_error.
     */
    async function recheck(sockets: AppSocket[]): Promise<void> {
      const bySession = new Map<string, AppSocket[]>();
      for (const socket of sockets) {
        const list = bySession.get(socket.data.sessionId) ?? [];
        list.push(socket);
        bySession.set(socket.data.sessionId, list);
      }
      for (const [sessionId, held] of bySession) {
        const session = await app.authService.live(sessionId);
        const caller = session ? await callerOfSession(app.db, session) : undefined;
        if (!caller || blockOf(caller)) {
          for (const socket of held) socket.disconnect(true);
          continue;
        }
        for (const socket of held) {
          if (!socket.connected) continue;
          socket.data = socketDataOf(caller, app.authService.endOf(caller.session));
          for (const room of socket.rooms) {
            if (room === socket.id) continue;
            const decision = await rules.decide(socket.data, room);
            if (decision.ok) continue;
            await socket.leave(room);
            socket.emit('subscription_error', room, { code: decision.code, message: decision.message });
          }
        }
      }
    }

    // Changes arrive from the database (every instance on it hears them) and are
    // gathered for a moment: one bulk change re-checks each socket once.
    let pending: AccessChange[] | 'all' = [];
    let batchTimer: NodeJS.Timeout | undefined;
    const runRecheck = (sockets: AppSocket[]) =>
      recheck(sockets).catch((error: unknown) => app.log.error({ err: error }, 'socket re-check failed'));
    const flush = () => {
      batchTimer = undefined;
      const changes = pending;
      pending = [];
      const sockets = [...io.of('/').sockets.values()].filter(
        (socket) =>
          changes === 'all' || changes.some((change) => concerns(change, socket.data, socket.rooms)),
      );
      if (sockets.length) void runRecheck(sockets);
    };
    const queue = (change: AccessChange | 'all') => {
      if (change === 'all') pending = 'all';
      else if (pending !== 'all') pending.push(change);
      batchTimer ??= setTimeout(flush, RECHECK_BATCH_MS);
    };
    const stopListening = await app.database.listen(ACCESS_CHANNEL, {
      onMessage: (payload) => {
        const change = parseAccessChange(payload);
        if (change) queue(change);
      },
      onGap: () => queue('all'),
    });

    // A socket outlives its access cookie (it refreshes over HTTP), not its session: at
    // the session's end (expiry, or idleness unless HTTP use moved it) it is re-checked.
    const sweep = setInterval(() => {
      const now = Date.now();
      const due = [...io.of('/').sockets.values()].filter((socket) => socket.data.endsAt <= now);
      if (due.length) void runRecheck(due);
    }, SESSION_SWEEP_MS);
    sweep.unref();

    // Connected sockets keep the HTTP server from closing: drop them when shutdown
    // begins, then close the socket.io server itself after HTTP (app.ts onClose order).
    app.addHook('preClose', async () => {
      clearInterval(sweep);
      clearTimeout(batchTimer);
      await stopListening();
      io.local.disconnectSockets(true);
      io.engine.close();
    });

    let closed = false;
    const realtime: Realtime = {
      publish(channel, event, payload) {
        // Channel events travel as (channel, payload): ServerToClientEvents spells each one.
        const room = io.to(channel);
        (room.emit as (event: string, ...args: unknown[]) => boolean).call(room, event, channel, payload);
      },
      addChannelRule: (rule) => rules.add(rule),
      disconnectSession(sessionId) {
        for (const socket of io.of('/').sockets.values()) {
          if (socket.data.sessionId === sessionId) socket.disconnect(true);
        }
      },
      connectedCount: () => io.of('/').sockets.size,
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(sweep);
        clearTimeout(batchTimer);
        // Closes every namespace's adapter (unsubscribing from Redis) and the engine; the
        // HTTP server is already closed, which io.close() reports and we ignore.
        await io.close(() => {});
        await redis?.close();
      },
    };
    app.decorate('realtime', realtime);
  },
  { name: 'realtime', dependencies: ['@fastify/cookie', 'auth'] },
);
