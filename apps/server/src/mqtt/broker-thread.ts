import { createServer, type Server } from 'node:net';
import { Duplex } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { TOPIC_ROOT } from '@fleetgate/shared/devices/topics';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { canPublish, canReceive, canSubscribe, type DeviceSession } from '../gateway/access-table';
import { GuardedConnection } from '../gateway/frame-guard';
import type { FromBroker, HandlerMap, ToBroker } from './broker-protocol';

/**
 * The embedded broker's thread (started by broker.ts): Aedes, its TCP listener, the frame
 * guard and the access table on every publish and subscribe. Parsing MQTT is the heaviest
 * work of a telemetry burst; here it no longer holds the thread that answers the console.
 * Whatever needs the database (who a device is, what its messages mean) is asked of the
 * server's thread, and devices' messages go there in batches.
 */
const port = parentPort;
if (!port) throw new Error('broker-thread.ts runs as a worker thread');
const post = (message: FromBroker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

let aedes: Aedes | undefined;
let server: Server | undefined;

/** Each authenticated connection: its number (the server's name for it) and its session. */
const connections = new WeakMap<Client, { conn: number; session: DeviceSession }>();
/** The newest ready connection of each serial (`disconnect` closes it). */
const live = new Map<string, Client>();
const webSockets = new Map<number, BridgedSocket>();
/** The guarded connections of those (their authentication is told the source: 'mqtt-ws'). */
const overWebSocket = new WeakSet<object>();
/** The largest frame a connection may send (MAX_FRAME_BYTES, given with `start`). */
let maxFrame = 0;
let nextConn = 0;

// Questions waiting for the server's thread.
let nextId = 0;
const authenticating = new Map<
  number,
  { client: Client; done: (e: AuthenticateError | null, ok: boolean) => void }
>();
const handling = new Map<number, () => void>();

/**
 * While the server's telemetry buffer is full (`hold`), QoS 0 publishes are acknowledged to
 * Aedes only on `release`: Aedes reads a connection's next packet after the acknowledgement,
 * so each device's connection stops being read and TCP pushes back to the device.
 */
let held = false;
let waiting: (() => void)[] = [];

// The batch on its way to the server's thread.
let topics: string[] = [];
let acks: number[] = [];
let payloads: Buffer[] = [];
let batchBytes = 0;
let flushQueued = false;
/** A batch goes at the end of the broker's turn, or sooner when this large. */
const BATCH_MAX_BYTES = 1 << 20;

function flush(): void {
  flushQueued = false;
  if (topics.length === 0) return;
  // A buffer of its own (not Node's shared pool), so it can be transferred.
  const bytes = new Uint8Array(batchBytes);
  const ends = new Uint32Array(payloads.length);
  let at = 0;
  for (let i = 0; i < payloads.length; i++) {
    bytes.set(payloads[i]!, at);
    at += payloads[i]!.length;
    ends[i] = at;
  }
  post({ t: 'up', topics, acks, bytes, ends }, [bytes.buffer, ends.buffer]);
  topics = [];
  acks = [];
  payloads = [];
  batchBytes = 0;
}

function queueUp(packet: PublishPacket, ack: number): void {
  const payload = packet.payload as Buffer;
  topics.push(packet.topic);
  acks.push(ack);
  payloads.push(payload);
  batchBytes += payload.length;
  if (batchBytes >= BATCH_MAX_BYTES) flush();
  else if (!flushQueued) {
    flushQueued = true;
    setImmediate(flush);
  }
}

function ended(client: Client): void {
  const entry = connections.get(client);
  if (!entry) return;
  const { serial } = entry.session;
  if (live.get(serial) === client) live.delete(serial);
  // The server hears of a connection's messages before of its end, in the broker's order.
  flush();
  post({ t: 'ended', conn: entry.conn, serial });
}

function install(broker: Aedes): void {
  broker.authenticate = (client, username, password, done) => {
    const id = ++nextId;
    authenticating.set(id, { client, done });
    post({
      t: 'auth',
      id,
      clientId: client.id,
      username,
      password: password?.toString('utf8'),
      ws: overWebSocket.has(client.conn),
      address: (client.conn as { remoteAddress?: string }).remoteAddress,
    });
  };

  broker.authorizePublish = (client, packet, done) => {
    const session = client ? connections.get(client)?.session : undefined;
    const decision = session
      ? canPublish(session, packet.topic)
      : { allowed: false as const, reason: 'no session' };
    if (!decision.allowed) {
      post({
        t: 'refused',
        op: 'publish',
        serial: session?.serial,
        topic: packet.topic.slice(0, 200),
        reason: decision.reason,
      });
      return done(new Error('publish not allowed'));
    }
    // Only the status is kept retained: nothing else may make the broker hold memory.
    if (!decision.rule.retain) packet.retain = false;
    done(null);
  };

  broker.authorizeSubscribe = (client, subscription, done) => {
    const session = connections.get(client)?.session;
    if (session && canSubscribe(session, subscription.topic)) return done(null, subscription);
    post({
      t: 'refused',
      op: 'subscribe',
      serial: session?.serial,
      topic: subscription.topic.slice(0, 200),
      reason: 'subscription refused',
    });
    // A negated subscription: SUBACK 0x80 for this filter, the connection stays.
    done(null, null);
  };

  // Devices receive nothing but what is addressed to them (their own down topics).
  broker.authorizeForward = (client, packet) => {
    const session = connections.get(client)?.session;
    return session && canReceive(session, packet.topic) ? packet : null;
  };

  broker.published = (packet, _client, done) => {
    if (!packet.topic.startsWith(`${TOPIC_ROOT}/`) || !packet.topic.includes('/up/')) return done();
    // QoS 1 keeps a device's messages in order: the next is read once this one is handled.
    if (packet.qos !== 0) {
      const id = ++nextId;
      handling.set(id, () => done());
      return queueUp(packet, id);
    }
    queueUp(packet, 0);
    if (held) waiting.push(() => done());
    else done();
  };

  broker.on('clientReady', (client) => {
    const entry = connections.get(client);
    if (!entry || client.closed) return;
    live.set(entry.session.serial, client);
    // Its stream's close is the end Aedes cannot fail to see (clientDisconnect is skipped
    // for a client whose registration a take-over removed).
    client.conn.once('close', () => ended(client));
    // At once, ahead of the batch under way: it may hold this connection's first messages
    // (sent with its CONNECT), which the server must hear of after its start.
    post({ t: 'ready', conn: entry.conn, session: entry.session });
  });
  broker.on('clientDisconnect', (client) => ended(client));
  broker.on('clientError', (client, error) => {
    post({ t: 'log', level: 'debug', clientId: client?.id, message: `mqtt client error: ${error.message}` });
  });
  broker.on('connectionError', (client, error) => {
    post({
      t: 'log',
      level: 'debug',
      clientId: client?.id,
      message: `mqtt connection error: ${error.message}`,
    });
  });
}

/**
 * An MQTT-over-WebSocket connection: the HTTP server (on the server's thread) owns the
 * socket and hands its bytes over; what Aedes writes goes back the same way.
 */
class BridgedSocket extends Duplex {
  constructor(
    readonly conn: number,
    readonly remoteAddress: string | undefined,
  ) {
    super();
  }
  private paused = false;

  /** Bytes the HTTP server's thread read; past the buffer's mark, that side stops reading. */
  receive(chunk: Buffer): void {
    if (!this.push(chunk) && !this.paused) {
      this.paused = true;
      post({ t: 'wsPause', conn: this.conn });
    }
  }

  override _read(): void {
    if (!this.paused) return;
    this.paused = false;
    post({ t: 'wsResume', conn: this.conn });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const copy = new Uint8Array(chunk);
    post({ t: 'wsWrite', conn: this.conn, chunk: copy }, [copy.buffer]);
    callback();
  }
  override _final(callback: () => void): void {
    post({ t: 'wsClose', conn: this.conn });
    callback();
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    webSockets.delete(this.conn);
    post({ t: 'wsClose', conn: this.conn });
    callback(error);
  }
}

async function start(options: { port: number; host: string; maxFrame: number }): Promise<void> {
  maxFrame = options.maxFrame;
  aedes = await Aedes.createBroker({ drainTimeout: 30_000, maxClientsIdLength: 64 });
  install(aedes);
  const broker = aedes;
  server = createServer((socket) => {
    broker.handle(new GuardedConnection(socket, maxFrame, socket.remoteAddress, () => {}));
  });
  const listener = server;
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address();
  post({ t: 'listening', port: typeof address === 'object' && address ? address.port : options.port });
}

async function close(): Promise<void> {
  const listener = server;
  const closed = listener ? new Promise<void>((resolve) => listener.close(() => resolve())) : undefined;
  for (const socket of webSockets.values()) socket.destroy();
  if (aedes) {
    const broker = aedes;
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  }
  await closed;
  flush();
  post({ t: 'closed' });
}

const HANDLERS: HandlerMap<ToBroker> = {
  start: (m) =>
    void start(m).catch((error: NodeJS.ErrnoException) =>
      post({ t: 'failed', message: error.message, code: error.code }),
    ),
  auth: ({ id, session, refused }) => {
    const waiting = authenticating.get(id);
    if (!waiting) return;
    authenticating.delete(id);
    if (session) {
      connections.set(waiting.client, { conn: ++nextConn, session });
      return waiting.done(null, true);
    }
    const error = Object.assign(new Error(refused?.reason ?? 'refused'), {
      returnCode: refused?.returnCode ?? 3,
    }) as AuthenticateError;
    waiting.done(error, false);
  },
  handled: ({ id }) => {
    const done = handling.get(id);
    handling.delete(id);
    done?.();
  },
  hold: () => {
    held = true;
  },
  release: () => {
    held = false;
    const ready = waiting;
    waiting = [];
    for (const done of ready) done();
  },
  publish: ({ id, topic, payload, qos, retain }) => {
    const packet: PublishPacket = {
      cmd: 'publish',
      topic,
      payload: Buffer.from(payload),
      qos,
      retain,
      dup: false,
    };
    if (!aedes) return post({ t: 'published', id, error: 'the broker is not running' });
    aedes.publish(packet, (error) =>
      post({ t: 'published', id, ...(error ? { error: error.message } : {}) }),
    );
  },
  disconnect: ({ serial }) => live.get(serial)?.close(),
  wsOpen: ({ conn, address }) => {
    const socket = new BridgedSocket(conn, address);
    webSockets.set(conn, socket);
    const guarded = new GuardedConnection(socket, maxFrame, address, () => {});
    overWebSocket.add(guarded);
    aedes?.handle(guarded);
  },
  wsData: ({ conn, chunk }) => {
    webSockets.get(conn)?.receive(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  },
  wsEnd: ({ conn }) => {
    const socket = webSockets.get(conn);
    webSockets.delete(conn);
    socket?.push(null);
    socket?.destroy();
  },
  close: () => void close(),
};

port.on('message', (message: ToBroker) => {
  (HANDLERS[message.t] as (m: ToBroker) => void)(message);
});
