import { type Behaviour, DeviceAgent } from '@fleetgate/device-sim/agent';
import { type DeviceIdentity, fleetDevice } from '@fleetgate/device-sim/identity';
import { DeviceServices } from '@fleetgate/device-sim/services';
import { MODELS } from '@fleetgate/shared/devices/catalogue';
import type { FastifyInstance } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { build } from '../src/app';
import type { Database } from '../src/db/database';
import { devicesRepository } from '../src/modules/devices/devices.repository';
import { testConfig } from './app';
import { openTestDatabase } from './database';

/** Simulated devices in tests act at once and never fail on their own. */
export const FAST: Partial<Behaviour> = {
  commandDelayMs: [0, 5],
  failureRate: 0,
  rebootDowntimeMs: [20, 40],
  eventChance: 0,
};

/** A database that survives `app.close()`, for restart tests; `reallyClose` ends it. */
export function keepOpen(database: Database): Database & { reallyClose(): Promise<void> } {
  return { ...database, close: async () => {}, reallyClose: () => database.close() };
}

/**
 * The real app with the embedded broker on a random port (never 1883), optionally
 * listening on a random HTTP port for MQTT over WebSocket.
 */
export async function buildGatewayApp(
  options: { database?: Database; listen?: boolean; env?: Record<string, string> } = {},
): Promise<FastifyInstance> {
  const database = options.database ?? (await openTestDatabase());
  const env: Record<string, string> = { MQTT_PORT: '0', HOST: '127.0.0.1', ...options.env };
  const app = await build(testConfig(env, { embeddedBroker: !env.MQTT_URL }), { database });
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  return app;
}

export const brokerUrl = (app: FastifyInstance) => `mqtt://127.0.0.1:${app.broker!.port}`;

export function httpPort(app: FastifyInstance): number {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

/** Polls until `probe` returns something truthy (no fixed sleeps in tests). */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeout = 8000, interval = 15, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

let nextIndex = 1;
/** A fresh simulated identity (fleet 77 keeps test serials apart from the demo's). */
export function testIdentity(model?: string): DeviceIdentity {
  const identity = fleetDevice(77, nextIndex++);
  const info = model ? MODELS[model] : undefined;
  if (!info) return identity;
  const { imei: _imei, ...rest } = identity;
  return {
    ...rest,
    model: info.model,
    firmware: info.firmware,
    ...(info.modems > 0 ? { imei: identity.imei ?? '353000000000005' } : {}),
  };
}

/** Registers a device directly (the API path has its own tests). */
export async function registerDirect(app: FastifyInstance, identity: DeviceIdentity, companyId = 1) {
  const device = await devicesRepository.insert(app.db, {
    companyId,
    serial: identity.serial,
    mac: identity.mac,
    name: `${identity.model}-${identity.serial}`,
  });
  if (!device) throw new Error(`serial ${identity.serial} taken`);
  return device;
}

/** A simulated device that has gone through first contact and is online with its secret. */
export async function onlineAgent(
  app: FastifyInstance,
  identity: DeviceIdentity,
  options: {
    url?: string;
    secret?: string;
    behaviour?: Partial<Behaviour>;
    telemetrySeconds?: number;
    /** Starts the services remote access may reach (device-sim services.ts); `agent.services.close()` ends them. */
    services?: boolean;
    /** Where the device's files live (its SFTP folder); a folder per serial in the temporary directory by default. */
    filesDir?: string;
    /** Runs before the agent connects (to attach listeners that must see everything). */
    before?: (agent: DeviceAgent) => void;
  } = {},
): Promise<DeviceAgent> {
  const agent = new DeviceAgent({
    url: options.url ?? brokerUrl(app),
    identity,
    secret: options.secret,
    behaviour: { ...FAST, ...options.behaviour },
    reconnectMs: 100,
    telemetrySeconds: options.telemetrySeconds ?? 3600,
  });
  if (options.services)
    agent.services = await DeviceServices.start(
      agent,
      options.filesDir ? { filesDir: options.filesDir } : {},
    );
  const online = new Promise<void>((resolve) => agent.once('online', () => resolve()));
  options.before?.(agent);
  agent.start();
  await online;
  return agent;
}

/** Subscribes and answers the granted QoS per filter (128 = refused), refusals included. */
export async function grantedQos(client: MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((g) => g.qos);
  } catch (error) {
    const granted = (error as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted;
    if (!granted) throw error;
    return granted.map((g) => (typeof g === 'number' ? g : g.qos));
  }
}

export type RawOutcome = { client: MqttClient; connected: boolean; returnCode?: number };

/** A raw MQTT client (no reconnect), resolved once the broker accepted or refused it. */
export function rawConnect(url: string, options: IClientOptions): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, {
      reconnectPeriod: 0,
      connectTimeout: 5000,
      protocolVersion: 4,
      ...options,
    });
    client.once('connect', () => resolve({ client, connected: true }));
    client.once('error', (error: Error & { code?: number }) => {
      client.end(true);
      resolve({ client, connected: false, ...(error.code !== undefined ? { returnCode: error.code } : {}) });
    });
  });
}

/**
 * A device through first contact (the simulator's agent fetches its secret, then stops),
 * connected again as a raw MQTT client with that secret: for tests that speak MQTT themselves.
 */
export async function rawWithSecret(
  app: FastifyInstance,
  identity: DeviceIdentity,
): Promise<RawOutcome & { secret: string }> {
  const agent = await onlineAgent(app, identity);
  await agent.stop();
  const secret = agent.secret!;
  const outcome = await rawConnect(brokerUrl(app), {
    clientId: identity.serial,
    username: identity.serial,
    password: secret,
  });
  return { ...outcome, secret };
}
