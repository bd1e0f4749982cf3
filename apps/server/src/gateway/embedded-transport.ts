import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_FRAME_BYTES } from '@fleetgate/shared/devices/messages';
import { ATTEMPT_CODES } from '@fleetgate/shared/devices/status';
import { TOPIC_ROOT } from '@fleetgate/shared/devices/topics';
import type { AuthenticateError, Client, PublishPacket } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { EmbeddedBroker } from '../mqtt/broker';
import { canPublish, canReceive, canSubscribe, type DeviceSession } from './access-table';
import type { DeviceAuthenticator } from './device-auth';
import { GuardedConnection } from './frame-guard';
import type { InboundRouter } from './inbound';

/** MQTT over WebSocket on the HTTP server (docs/device-protocol.md). */
export const MQTT_WS_PATH = '/mqtt';

// aedes' AuthErrorCode is a const enum (not importable under isolatedModules).
const BAD_CREDENTIALS = 4;
const NOT_AUTHORIZED = 5;
const SERVER_UNAVAILABLE = 3;

/**
 * The CONNACK code of a refusal (docs/device-protocol.md §2): 5 when the device proved who it
 * is but may not connect now (monitoring disabled, no active service), so it keeps its secret
 * and tries again later; 4 when its credentials are not accepted; 3 when nothing was decided.
 */
function returnCodeOf(outcome: { code: number; reason: string }): number {
  if (outcome.reason.startsWith('Server error')) return SERVER_UNAVAILABLE;
  if (outcome.code === ATTEMPT_CODES.monitoringDisabled || outcome.code === ATTEMPT_CODES.noCredit)
    return NOT_AUTHORIZED;
  return BAD_CREDENTIALS;
}
/** A first contact (claim, hello, secret) takes seconds; after this long a new one may start. */
const CLAIM_MAX_MS = 30_000;

export type SessionHooks = {
  opened(session: DeviceSession): void;
  closed(session: DeviceSession): void;
};

/**
 * The device gateway on the embedded broker: authentication, the access table on every
 * publish and subscribe, and every device message handed to the inbound router.
 */
export class EmbeddedTransport {
  private sessions = new WeakMap<Client, DeviceSession>();
  private live = new Map<string, { client: Client; since: number }>();
  private wsConnections = new WeakSet<object>();
  private wss: WebSocketServer | undefined;
  refusedSubscriptions = 0;
  refusedPublishes = 0;

  constructor(
    private readonly broker: EmbeddedBroker,
    private readonly authenticate: DeviceAuthenticator,
    private readonly router: InboundRouter,
    private readonly hooks: SessionHooks,
    private readonly log: FastifyBaseLogger,
  ) {}

  install(): void {
    const { aedes } = this.broker;
    aedes.authenticate = (client, username, password, done) => {
      const isWs = this.wsConnections.has(client.conn);
      const address = (client.conn as { remoteAddress?: string }).remoteAddress;
      void this.authenticate({
        clientId: client.id,
        username,
        password: password?.toString('utf8'),
        source: { alias: isWs ? 'mqtt-ws' : 'mqtt', address },
      }).then((outcome) => {
        if (outcome.ok) {
          this.sessions.set(client, outcome.session);
          done(null, true);
        } else {
          const error = Object.assign(new Error(outcome.reason), {
            returnCode: returnCodeOf(outcome),
          }) as AuthenticateError;
          done(error, false);
        }
      });
    };

    aedes.authorizePublish = (client, packet, done) => {
      const session = client ? this.sessions.get(client) : undefined;
      const decision = session
        ? canPublish(session, packet.topic)
        : { allowed: false as const, reason: 'no session' };
      if (!decision.allowed) {
        this.refusedPublishes++;
        this.log.warn(
          { serial: session?.serial, topic: packet.topic.slice(0, 200) },
          `publish refused: ${decision.reason}`,
        );
        return done(new Error('publish not allowed'));
      }
      // Only the status is kept retained: nothing else may make the broker hold memory.
      if (!decision.rule.retain) packet.retain = false;
      done(null);
    };

    aedes.authorizeSubscribe = (client, subscription, done) => {
      const session = this.sessions.get(client);
      if (session && canSubscribe(session, subscription.topic)) return done(null, subscription);
      this.refusedSubscriptions++;
      this.log.warn(
        { serial: session?.serial, filter: subscription.topic.slice(0, 200) },
        'subscription refused',
      );
      // A negated subscription: SUBACK 0x80 for this filter, the connection stays.
      done(null, null);
    };

    // Devices receive nothing but what is addressed to them (their own down topics).
    aedes.authorizeForward = (client, packet) => {
      const session = this.sessions.get(client);
      return session && canReceive(session, packet.topic) ? packet : null;
    };

    aedes.published = (packet, _client, done) => {
      if (!packet.topic.startsWith(`${TOPIC_ROOT}/`) || !packet.topic.includes('/up/')) return done();
      const handled = this.router.handle(packet.topic, packet.payload as Buffer);
      // QoS 0 (telemetry) waits for nothing but room in the telemetry buffer: Aedes reads
      // the connection's next packet after `done`. QoS 1 keeps a device's messages in order.
      if (packet.qos === 0) {
        const room = this.router.room();
        return room ? void room.then(() => done()) : done();
      }
      void handled.finally(() => done());
    };

    aedes.on('clientReady', (client) => {
      const session = this.sessions.get(client);
      if (!session) return;
      if (client.closed) return;
      this.live.set(session.serial, { client, since: Date.now() });
      // Its stream's close is the end Aedes cannot fail to see (clientDisconnect is skipped
      // for a client whose registration a take-over removed).
      client.conn.once('close', () => this.ended(client));
      // A secret session is online by itself; a first-contact session when it says so.
      if (session.mode === 'secret') this.hooks.opened(session);
    });
    aedes.on('clientDisconnect', (client) => this.ended(client));
    aedes.on('clientError', (client, error) => {
      this.log.debug({ clientId: client?.id, err: error.message }, 'mqtt client error');
    });
    aedes.on('connectionError', (client, error) => {
      this.log.debug({ clientId: client?.id, err: error.message }, 'mqtt connection error');
    });
  }

  /** MQTT over WebSocket at MQTT_WS_PATH on the HTTP server (the same port as the console). */
  attachWebSocket(server: HttpServer): void {
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
    this.wss = wss;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== MQTT_WS_PATH) return;
      wss.handleUpgrade(request, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        const address = request.socket.remoteAddress;
        const conn = new GuardedConnection(stream, MAX_FRAME_BYTES, address, () => {});
        this.wsConnections.add(conn);
        this.broker.aedes.handle(conn, request);
      });
    });
  }

  /** Closes every WebSocket connection (before the HTTP server closes, which waits for them). */
  closeWebSockets(): void {
    if (!this.wss) return;
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  publish(topic: string, payload: string): Promise<void> {
    const packet: PublishPacket = {
      cmd: 'publish',
      topic,
      payload: Buffer.from(payload),
      qos: 1,
      retain: false,
      dup: false,
    };
    return new Promise((resolve, reject) =>
      this.broker.aedes.publish(packet, (error) => (error ? reject(error) : resolve())),
    );
  }

  /**
   * A connection ended (DISCONNECT, a dropped link, keep-alive, take-over, or the server
   * closed it), whatever the device said before: the device goes offline unless a newer
   * connection of it replaced this one. First-contact sessions too: a device may have
   * reported itself online in one (docs/device-protocol.md §4.2).
   */
  private ended(client: Client): void {
    const session = this.sessions.get(client);
    if (!session || this.live.get(session.serial)?.client !== client) return;
    this.live.delete(session.serial);
    this.hooks.closed(session);
  }

  /**
   * The live session of a serial, if its connection is still open. Only `ended` removes an
   * entry: removing a closed one here would keep its end from being reported.
   */
  private liveSession(serial: string) {
    const entry = this.live.get(serial);
    if (!entry || entry.client.closed) return undefined;
    return { ...entry, mode: this.sessions.get(entry.client)?.mode };
  }

  connected(serial: string): boolean {
    return this.liveSession(serial) !== undefined;
  }

  /**
   * A first-contact session of this serial is connected now. One that has not finished
   * within CLAIM_MAX_MS (the device vanished mid-way) no longer blocks a new one.
   */
  claimActive(serial: string): boolean {
    const s = this.liveSession(serial);
    return s?.mode === 'claim' && Date.now() - s.since < CLAIM_MAX_MS;
  }

  /** A secret session of this serial is connected now (commands can go out). */
  reachable(serial: string): boolean {
    return this.liveSession(serial)?.mode === 'secret';
  }

  /** Drops the device's session (unregistered, or its identity reset). */
  disconnect(serial: string): void {
    this.live.get(serial)?.client.close();
  }
}
