import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect as connectTcp } from 'node:net';
import { actionParamsSchemas } from '@fleetgate/shared/devices/actions';
import {
  type CommandMessage,
  commandMessageSchema,
  type HelloMessage,
  parseJson,
  type ReplyMessage,
  type StateMessage,
  secretMessageSchema,
} from '@fleetgate/shared/devices/messages';
import { parseTopic, topics } from '@fleetgate/shared/devices/topics';
import { TUNNEL_HEADERS } from '@fleetgate/shared/devices/tunnel';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket, { createWebSocketStream } from 'ws';
import { executeCommand } from './commands';
import type { DeviceIdentity } from './identity';
import { Random, seedOf } from './random';
import type { DeviceServices } from './services';
import type { ShellDevice } from './shell';
import { type PersistentCounters, TelemetryModel } from './telemetry';

export const AGENT = { name: 'fleetgate-sim', version: '1.0.0' } as const;

export type Behaviour = {
  /** Delay before a command runs (ms, min and max). */
  commandDelayMs: [number, number];
  /** Share of commands that fail (reboot never does). */
  failureRate: number;
  /** How long a reboot keeps the device away (ms). */
  rebootDowntimeMs: [number, number];
  /** Chance per telemetry report of an unsolicited event. */
  eventChance: number;
};

export const DEFAULT_BEHAVIOUR: Behaviour = {
  commandDelayMs: [400, 2500],
  failureRate: 0.05,
  rebootDowntimeMs: [5000, 15000],
  eventChance: 0.02,
};

export type AgentOptions = {
  url: string;
  identity: DeviceIdentity;
  secret?: string | undefined;
  counters?: PersistentCounters | undefined;
  /** Telemetry period until the server sets one with `monitoring_period` (seconds). */
  telemetrySeconds?: number;
  behaviour?: Partial<Behaviour>;
  /** The services remote access may reach (services.ts); none when absent. */
  services?: DeviceServices | undefined;
  reconnectMs?: number;
  keepaliveSeconds?: number;
};

type Seen = { final?: ReplyMessage };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
/** Whether a tunnel address is on the host the device's MQTT connection goes to (loopback names alike). */
function sameServer(tunnelUrl: string, brokerUrl: string): boolean {
  const a = new URL(tunnelUrl).hostname;
  const b = new URL(brokerUrl).hostname;
  return a === b || (LOOPBACK.has(a) && LOOPBACK.has(b));
}
const SEEN_MAX = 256;
/** Refusals of the secret in a row before the agent tries first contact again (identity reset). */
const SECRET_REFUSALS_BEFORE_CLAIM = 3;

/**
 * One simulated device speaking the device protocol for real (docs/device-protocol.md):
 * first contact with serial and MAC, then its secret; retained status with a last will;
 * hello; telemetry; commands run in order, once each (deduplicated by id), acked then
 * answered. Events: 'online', 'offline', 'secret', 'refused', 'command', 'reply'.
 */
export class DeviceAgent extends EventEmitter {
  readonly identity: DeviceIdentity;
  readonly model: TelemetryModel;
  secret: string | undefined;
  hostname: string;
  /** The password of the device's `admin` user: its SSH sign-in, changed by set_password. */
  password: string;
  services: DeviceServices | undefined;
  periodSeconds: number;
  online = false;
  private client: MqttClient | undefined;
  private conn = randomBytes(6).toString('hex');
  private bootId = randomBytes(6).toString('hex');
  private nextReportAt = 0;
  private lastReportAt = Date.now();
  private lastState: StateMessage | undefined;
  private queue: CommandMessage[] = [];
  private running = false;
  private seen = new Map<string, Seen>();
  private refusals = 0;
  private stopped = true;
  private rebooting = false;
  private readonly behaviour: Behaviour;
  private readonly rnd: Random;
  readonly eventLog: string[] = [];

  constructor(private readonly options: AgentOptions) {
    super();
    this.identity = options.identity;
    this.secret = options.secret;
    this.model = new TelemetryModel(options.identity, options.counters);
    this.hostname = `${options.identity.model}-${options.identity.serial.slice(-4)}`;
    this.password = `admin-${options.identity.serial}`;
    this.services = options.services;
    this.periodSeconds = options.telemetrySeconds ?? 300;
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
    this.rnd = new Random(seedOf(`${options.identity.serial}:agent`));
    this.setMaxListeners(50);
  }

  get serial(): string {
    return this.identity.serial;
  }

  get mode(): 'secret' | 'claim' {
    return this.secret ? 'secret' : 'claim';
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  private connect(): void {
    const { serial, mac } = this.identity;
    this.conn = randomBytes(6).toString('hex');
    const client = mqtt.connect(this.options.url, {
      clientId: serial,
      username: serial,
      password: this.secret ?? mac,
      clean: false,
      protocolVersion: 4,
      keepalive: this.options.keepaliveSeconds ?? 60,
      reconnectPeriod: this.options.reconnectMs ?? 3000,
      // A router keeps trying after a refusal: its service may come back (code 5), or its
      // secret may have been reset (code 4, first contact again after a few).
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      resubscribe: false,
      will: {
        topic: topics.status(serial),
        payload: Buffer.from(
          JSON.stringify({ state: 'offline', conn: this.conn, reason: 'connection lost' }),
        ),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    // A client this agent has moved on from (after first contact, a reboot) must not act
    // for it: ended clients can still be mid-reconnect.
    const current = () => {
      if (client === this.client) return true;
      client.end(true);
      return false;
    };
    client.on('connect', () => {
      if (current()) void this.onConnect(client);
    });
    client.on('message', (topic, payload) => {
      if (current()) this.onMessage(topic, payload);
    });
    client.on('error', (error) => {
      if (current()) this.onError(client, error);
    });
    client.on('close', () => {
      if (client !== this.client) return;
      if (this.online) {
        this.online = false;
        this.emit('offline');
      }
      // The next connection names a new conn in its will (a late will of this one is ignored).
      this.conn = randomBytes(6).toString('hex');
      const will = client.options.will;
      if (will)
        will.payload = Buffer.from(
          JSON.stringify({ state: 'offline', conn: this.conn, reason: 'connection lost' }),
        );
    });
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.refusals = 0;
    const { serial } = this.identity;
    try {
      if (this.mode === 'claim') {
        await client.subscribeAsync(topics.secret(serial), { qos: 1 });
        await this.publish(topics.hello(serial), this.hello(), 1);
        return;
      }
      await client.subscribeAsync([topics.commandFilter(serial), topics.secret(serial)], { qos: 1 });
      await this.publish(topics.status(serial), { state: 'online', conn: this.conn }, 1, true);
      await this.publish(topics.hello(serial), this.hello(), 1);
      this.online = true;
      this.nextReportAt = 0;
      this.emit('online');
    } catch {
      // The connection went away meanwhile; the next connect starts over.
    }
  }

  private onError(client: MqttClient, error: Error & { code?: number }): void {
    if (error.code !== 4 && error.code !== 5) return;
    this.emit('refused', error.code);
    // 5: the secret was accepted but the device may not connect now (monitoring off, no
    // service): keep it and retry. 4: the secret itself is refused.
    if (error.code === 5) return;
    if (this.mode === 'secret' && ++this.refusals >= SECRET_REFUSALS_BEFORE_CLAIM) {
      // Our secret is no longer accepted (the operator reset the identity): first contact again.
      this.secret = undefined;
      this.refusals = 0;
      client.options.password = this.identity.mac;
    }
  }

  private hello(): HelloMessage {
    const caps = this.model.caps;
    return {
      serial: this.identity.serial,
      mac: this.identity.mac,
      model: this.identity.model,
      firmware: this.identity.firmware,
      ...(this.identity.imei ? { imei: this.identity.imei } : {}),
      hostname: this.hostname,
      sims: Array.from({ length: caps.sim_count }, (_, i) => ({
        slot: i + 1,
        ...(caps.has_second_modem ? { modem: i < caps.sim_count / 2 ? 1 : 2 } : {}),
        state: i === 0 ? ('active' as const) : ('inserted' as const),
      })),
      monitoring_period: this.periodSeconds,
      agent: { ...AGENT },
      boot_id: this.bootId,
    };
  }

  private onMessage(topic: string, payload: Buffer): void {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.serial !== this.identity.serial || parsed.direction !== 'down') return;
    if (parsed.kind === 'secret') {
      const message = secretMessageSchema.safeParse(parseJson(payload));
      if (!message.success) return;
      const wasClaim = this.mode === 'claim';
      this.secret = message.data.secret;
      this.emit('secret', this.secret);
      // Stored: reconnect with it, now the only credential that works.
      if (wasClaim) void this.reconnectNow();
      return;
    }
    const command = commandMessageSchema.safeParse(parseJson(payload));
    if (command.success && command.data.id === parsed.commandId) this.onCommand(command.data);
  }

  private async reconnectNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (this.online) {
      this.online = false;
      this.emit('offline');
    }
    await endClient(client);
    if (!this.stopped) this.connect();
  }

  private onCommand(command: CommandMessage): void {
    const seen = this.seen.get(command.id);
    if (seen) {
      // A re-sent command: never run twice; repeat the outcome if there is one.
      if (seen.final) void this.publish(topics.reply(this.serial, command.id), seen.final, 1);
      return;
    }
    this.seen.set(command.id, {});
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.keys().next().value!);
    this.emit('command', command);
    void this.publish(topics.reply(this.serial, command.id), { id: command.id, status: 'acked' }, 1);
    if (command.action === 'open_stream') {
      // Someone is waiting at a terminal: a stream never queues behind other work.
      void this.openStream(command).then((reply) => this.finish(command, reply));
      return;
    }
    this.queue.push(command);
    this.queue.sort((a, b) => a.seq - b.seq);
    void this.runQueue();
  }

  private async runQueue(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const command = this.queue.shift()!;
        const [min, max] = this.behaviour.commandDelayMs;
        await sleep(this.rnd.between(min, max));
        const reply = executeCommand(this, command, {
          fail: command.action !== 'reboot' && this.rnd.chance(this.behaviour.failureRate),
        });
        this.seen.set(command.id, { final: reply });
        this.eventLog.push(`${new Date().toISOString()} command ${command.action}: ${reply.status}`);
        await this.publish(topics.reply(this.serial, command.id), reply, 1);
        this.emit('reply', reply);
        if (command.action === 'reboot' && reply.status === 'done') await this.reboot();
      }
    } finally {
      this.running = false;
    }
  }

  private async finish(command: CommandMessage, reply: ReplyMessage): Promise<void> {
    this.seen.set(command.id, { final: reply });
    this.eventLog.push(`${new Date().toISOString()} command ${command.action}: ${reply.status}`);
    await this.publish(topics.reply(this.serial, command.id), reply, 1);
    this.emit('reply', reply);
  }

  /** What the device's shell sees of it (the CLI action and the SSH shell). */
  shellDevice(): ShellDevice {
    const { serial, mac, model, firmware } = this.identity;
    return {
      serial,
      mac,
      model,
      firmware,
      hostname: this.hostname,
      uptimeSeconds: this.state?.uptime ?? 0,
      state: this.state,
    };
  }

  /**
   * open_stream (docs/device-protocol.md §7): connects the asked service, then a WebSocket to
   * the server's tunnel with the serial, the secret and the stream's token, and pipes bytes
   * both ways until either side ends. Refused: a service the device does not have, and a
   * tunnel anywhere but its own management server (a command cannot send its bytes elsewhere).
   */
  private async openStream(command: CommandMessage): Promise<ReplyMessage> {
    const id = command.id;
    const parsed = actionParamsSchemas.open_stream.safeParse(command.params);
    if (!parsed.success) return { id, status: 'failed', error: 'Invalid parameters' };
    if (Date.parse(command.expires_at) < Date.now())
      return { id, status: 'failed', error: 'Command expired before it could run' };
    const { host, port, url, token, stream } = parsed.data;
    const local = this.services?.resolve(host, port);
    if (!local) return { id, status: 'failed', error: `No service at ${host}:${port}` };
    if (!sameServer(url, this.options.url))
      return { id, status: 'failed', error: 'The tunnel address is not this device’s management server' };
    if (!this.secret) return { id, status: 'failed', error: 'The device has no secret yet' };
    const secret = this.secret;
    return new Promise<ReplyMessage>((resolve) => {
      const tcp = connectTcp(local.port, local.host);
      tcp.once('error', () =>
        resolve({ id, status: 'failed', error: `Connection to ${host}:${port} refused` }),
      );
      tcp.once('connect', () => {
        const ws = new WebSocket(url, {
          headers: {
            [TUNNEL_HEADERS.serial]: this.serial,
            [TUNNEL_HEADERS.secret]: secret,
            [TUNNEL_HEADERS.token]: token,
          },
          perMessageDeflate: false,
          handshakeTimeout: 10_000,
          // A zero masking key: masking guards browsers' frames against caching proxies (RFC 6455
          // §10.3), which an agent is not; with it both ends skip XOR-ing every byte
          // (docs/device-protocol.md §9).
          generateMask: (mask: Buffer) => mask.fill(0),
        });
        ws.once('unexpected-response', (_request, response) => {
          tcp.destroy();
          ws.terminate();
          resolve({
            id,
            status: 'failed',
            error: `The server refused stream ${stream} (${response.statusCode})`,
          });
        });
        ws.once('error', (error) => {
          tcp.destroy();
          resolve({ id, status: 'failed', error: `Tunnel failed: ${error.message}` });
        });
        ws.once('open', () => {
          const tunnel = createWebSocketStream(ws);
          tunnel.on('error', () => tcp.destroy());
          tcp.on('error', () => tunnel.destroy());
          tunnel.pipe(tcp).pipe(tunnel);
          resolve({ id, status: 'done', output: `Stream ${stream} to ${host}:${port} opened` });
        });
      });
    });
  }

  /** Reboots: says offline, goes away for the reboot time, comes back with a new boot id. */
  async reboot(): Promise<void> {
    if (this.rebooting || this.stopped) return;
    this.rebooting = true;
    try {
      await this.publish(
        topics.status(this.serial),
        { state: 'offline', conn: this.conn, reason: 'reboot' },
        1,
        true,
      );
      const client = this.client;
      this.client = undefined;
      if (this.online) {
        this.online = false;
        this.emit('offline');
      }
      await endClient(client);
      const [min, max] = this.behaviour.rebootDowntimeMs;
      await sleep(this.rnd.between(min, max));
      this.model.reboot();
      this.bootId = randomBytes(6).toString('hex');
      if (!this.stopped) this.connect();
    } finally {
      this.rebooting = false;
    }
  }

  /** Drops the connection without DISCONNECT, as a lost link does: the broker sends the will. */
  dropConnection(): void {
    const stream = (this.client as unknown as { stream?: { destroy(): void } } | undefined)?.stream;
    stream?.destroy();
  }

  /** Called about once a second by the fleet: telemetry when due, now and then an event. */
  tick(now = Date.now()): void {
    if (!this.online || !this.client?.connected) return;
    if (now < this.nextReportAt) return;
    const seconds = Math.max(1, (now - this.lastReportAt) / 1000);
    this.lastReportAt = now;
    this.nextReportAt = now + this.periodSeconds * 1000 * this.rnd.between(0.95, 1.05);
    this.lastState = this.model.sample(seconds, now);
    void this.publish(topics.state(this.serial), this.lastState, 0);
    if (this.rnd.chance(this.behaviour.eventChance)) this.randomEvent();
  }

  private randomEvent(): void {
    const events = [
      { type: 'wan.failover', severity: 'warning', message: 'Mobile WAN lost; switched to backup' },
      { type: 'wan.restored', severity: 'info', message: 'Primary WAN restored' },
      {
        type: 'auth.login_failed',
        severity: 'warning',
        message: 'Failed WebUI login attempt from 192.168.1.23',
      },
      { type: 'io.changed', severity: 'info', message: 'Digital input 2 changed state' },
    ] as const;
    const event = this.rnd.pick(events);
    this.eventLog.push(`${new Date().toISOString()} ${event.type}: ${event.message}`);
    void this.publish(topics.event(this.serial), { ...event, at: new Date().toISOString() }, 1);
  }

  get state(): StateMessage | undefined {
    return this.lastState;
  }

  setPeriod(seconds: number): void {
    this.periodSeconds = seconds;
    this.nextReportAt = Date.now() + seconds * 1000;
  }

  private publish(topic: string, message: unknown, qos: 0 | 1, retain = false): Promise<void> {
    const client = this.client;
    if (!client) return Promise.resolve();
    return client.publishAsync(topic, JSON.stringify(message), { qos, retain }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Stops the agent; gracefully (offline status, DISCONNECT) unless `abrupt`. */
  async stop(abrupt = false): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    if (this.online) {
      this.online = false;
      this.emit('offline');
    }
    if (!client) return;
    if (abrupt) {
      client.end(true);
      return;
    }
    if (client.connected && this.mode === 'secret') {
      await client
        .publishAsync(
          topics.status(this.serial),
          JSON.stringify({ state: 'offline', conn: this.conn, reason: 'shutdown' }),
          {
            qos: 1,
            retain: true,
          },
        )
        .catch(() => {});
    }
    await client.endAsync().catch(() => {});
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Ends a client with a DISCONNECT, or forcibly if the broker does not answer within 2 s. */
async function endClient(client: MqttClient | undefined): Promise<void> {
  if (!client) return;
  const timer = setTimeout(() => client.end(true), 2000);
  await client.endAsync().catch(() => {});
  clearTimeout(timer);
}
