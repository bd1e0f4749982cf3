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
import { type ChannelRule, ChannelRules, notificationsRule, type SocketIdentity } from './channels';
import { handshakeRefusal, identify, socketOriginAllowed } from './handshake';
import { connectRedisAdapter, type RedisLink } from './redis';

/** What the server keeps per socket. */
type SocketData = SocketIdentity & { sessionExpiresAt: number };
type AppServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Channels one socket may hold at once: a console page follows a handful. */
export const MAX_CHANNELS_PER_SOCKET = 200;
/** How often sockets whose session has ended are dropped. */
const SESSION_SWEEP_MS = 60_000;

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

function acknowledge<T>(ack: unknown, value: T): void {
  // A hostile client may send anything where the acknowledgement belongs.
  if (typeof ack === 'function') (ack as (value: T) => void)(value);
}

/**
 * socket.io at /status/socket.io (spec §7, ARCHITECTURE §1): the handshake needs a live
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
        const found = await identify(app, socket.request);
        if (!found) return next(handshakeRefusal(401, 'Authentication required'));
        socket.data = { ...found.identity, sessionExpiresAt: found.sessionExpiresAt.getTime() };
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
          if (decision.ok) await socket.join(channel);
          else {
            // spec §4: the client unsubscribes on a subscription_error with code 403.
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

    // A socket outlives its access cookie (it refreshes over HTTP), not its session.
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const socket of io.of('/').sockets.values()) {
        if (socket.data.sessionExpiresAt <= now) socket.disconnect(true);
      }
    }, SESSION_SWEEP_MS);
    sweep.unref();

    // Connected sockets keep the HTTP server from closing: drop them when shutdown
    // begins, then close the socket.io server itself after HTTP (app.ts onClose order).
    app.addHook('preClose', async () => {
      clearInterval(sweep);
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
