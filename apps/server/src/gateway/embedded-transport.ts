import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_FRAME_BYTES } from '@fleetgate/shared/devices/messages';
import { ATTEMPT_CODES } from '@fleetgate/shared/devices/status';
import type { FastifyBaseLogger } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { EmbeddedBroker } from '../mqtt/broker';
import type { BrokerReport, HandlerMap } from '../mqtt/broker-protocol';
import type { DeviceSession } from './access-table';
import type { DeviceAuthenticator } from './device-auth';
import type { InboundRouter } from './inbound';

/** MQTT over WebSocket on the HTTP server (docs/device-protocol.md). */
export const MQTT_WS_PATH = '/mqtt';

// CONNACK return codes (aedes' AuthErrorCode is a const enum, not importable under isolatedModules).
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
 * The device gateway on the embedded broker. The broker's thread checks the access table on
 * every publish and subscribe; here, on the server's thread, devices are authenticated,
 * their sessions followed, and every device message handed to the inbound router.
 */
export class EmbeddedTransport {
  /** Each serial's current connection (the broker's number for it). */
  private live = new Map<string, { conn: number; session: DeviceSession; since: number }>();
  private webSockets = new Map<number, WebSocket>();
  private nextWebSocket = 0;
  private wss: WebSocketServer | undefined;
  /** Telemetry is held in the broker's thread until the writer has room again. */
  private holding = false;
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
    this.broker.listen((message) => (this.handlers[message.t] as (m: BrokerReport) => void)(message));
  }

  private readonly handlers: HandlerMap<BrokerReport> = {
    auth: (question) => this.authenticated(question),
    ready: ({ session, conn }) => {
      this.live.set(session.serial, { conn, session, since: Date.now() });
      // A secret session is online by itself; a first-contact session when it says so.
      if (session.mode === 'secret') this.hooks.opened(session);
    },
    ended: ({ serial, conn }) => this.ended(serial, conn),
    up: (batch) => this.route(batch),
    refused: ({ op, serial, topic, reason }) => {
      if (op === 'publish') {
        this.refusedPublishes++;
        this.log.warn({ serial, topic }, `publish refused: ${reason}`);
      } else {
        this.refusedSubscriptions++;
        this.log.warn({ serial, filter: topic }, 'subscription refused');
      }
    },
    log: ({ level, clientId, message }) => this.log[level]({ clientId }, message),
    wsWrite: ({ conn, chunk }) => this.webSockets.get(conn)?.send(chunk),
    // Backpressure: the broker's thread has not read what it was given yet.
    wsPause: ({ conn }) => this.webSockets.get(conn)?.pause(),
    wsResume: ({ conn }) => this.webSockets.get(conn)?.resume(),
    stopped: ({ error }) => {
      this.log.error({ err: error }, 'the mqtt broker thread stopped; starting it again');
      // Every connection went with the thread: its devices are offline until they return.
      for (const [serial, entry] of this.live) this.ended(serial, entry.conn);
      for (const ws of this.webSockets.values()) ws.terminate();
      this.webSockets.clear();
    },
    wsClose: ({ conn }) => {
      const ws = this.webSockets.get(conn);
      this.webSockets.delete(conn);
      ws?.terminate();
    },
  };

  private authenticated(question: Extract<BrokerReport, { t: 'auth' }>): void {
    void this.authenticate({
      clientId: question.clientId,
      username: question.username,
      password: question.password,
      source: { alias: question.ws ? 'mqtt-ws' : 'mqtt', address: question.address },
    }).then(
      (outcome) =>
        this.broker.send(
          outcome.ok
            ? { t: 'auth', id: question.id, session: outcome.session }
            : {
                t: 'auth',
                id: question.id,
                refused: { reason: outcome.reason, returnCode: returnCodeOf(outcome) },
              },
        ),
      // Nothing decided (the authenticator failed): the device is told to try again later.
      (error: unknown) => {
        this.log.error({ err: error, clientId: question.clientId }, 'device authentication failed');
        this.broker.send({
          t: 'auth',
          id: question.id,
          refused: { reason: 'Server error', returnCode: SERVER_UNAVAILABLE },
        });
      },
    );
  }

  /**
   * A batch of devices' messages, in the order the broker took them. QoS 1 messages are
   * answered once handled (a device's next one waits for it); telemetry is held in the
   * broker while the writer has no room (backpressure: TelemetryWriter.room).
   */
  private route({ topics, acks, bytes, ends }: Extract<BrokerReport, { t: 'up' }>): void {
    let start = 0;
    for (let i = 0; i < topics.length; i++) {
      const payload = Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[i]! - start);
      start = ends[i]!;
      const handled = this.router.handle(topics[i]!, payload);
      const ack = acks[i]!;
      if (ack !== 0) void handled.finally(() => this.broker.send({ t: 'handled', id: ack }));
    }
    if (this.holding) return;
    const room = this.router.room();
    if (!room) return;
    this.holding = true;
    this.broker.send({ t: 'hold' });
    void room.then(() => {
      this.holding = false;
      this.broker.send({ t: 'release' });
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
        // The broker's thread reads the connection: its bytes go there and come back.
        const conn = ++this.nextWebSocket;
        this.webSockets.set(conn, ws);
        this.broker.send({ t: 'wsOpen', conn, address: request.socket.remoteAddress });
        ws.on('message', (data: Buffer) => {
          const chunk = new Uint8Array(data);
          this.broker.send({ t: 'wsData', conn, chunk }, [chunk.buffer]);
        });
        ws.on('close', () => {
          if (this.webSockets.delete(conn)) this.broker.send({ t: 'wsEnd', conn });
        });
        ws.on('error', () => ws.terminate());
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
    return this.broker.publish(topic, payload, { qos: 1, retain: false });
  }

  /**
   * A connection ended (DISCONNECT, a dropped link, keep-alive, take-over, or the server
   * closed it), whatever the device said before: the device goes offline unless a newer
   * connection of it replaced this one. First-contact sessions too: a device may have
   * reported itself online in one (docs/device-protocol.md §4.2).
   */
  private ended(serial: string, conn: number): void {
    const entry = this.live.get(serial);
    if (entry?.conn !== conn) return;
    this.live.delete(serial);
    this.hooks.closed(entry.session);
  }

  /** A connection of this serial is open now (the broker's thread reports each end). */
  connected(serial: string): boolean {
    return this.live.get(serial) !== undefined;
  }

  /**
   * A first-contact session of this serial is connected now. One that has not finished
   * within CLAIM_MAX_MS (the device vanished mid-way) no longer blocks a new one.
   */
  claimActive(serial: string): boolean {
    const s = this.live.get(serial);
    return s?.session.mode === 'claim' && Date.now() - s.since < CLAIM_MAX_MS;
  }

  /** A secret session of this serial is connected now (commands can go out). */
  reachable(serial: string): boolean {
    return this.live.get(serial)?.session.mode === 'secret';
  }

  /** Drops the device's session (unregistered, or its identity reset). */
  disconnect(serial: string): void {
    this.broker.send({ t: 'disconnect', serial });
  }
}
