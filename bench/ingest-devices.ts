/**
 * The publishers of bench/ingest.ts, in their own process: simulated devices
 * (apps/device-sim DeviceAgent, speaking the real protocol) that connect, then send
 * telemetry as fast as they can. The same agents, with the same secrets and payloads,
 * publish to the embedded broker and to bare Mosquitto.
 */
import { DeviceAgent } from '@fleetgate/device-sim/agent';
import { fleetDevices } from '@fleetgate/device-sim/identity';
import { topics } from '@fleetgate/shared/devices/topics';
import mqtt from 'mqtt';
import { serveParent } from './support/child';

export type DevicesIn =
  | { type: 'connect'; url: string; fleet: number; count: number; secrets?: Record<string, string> }
  /** `rounds` reports from every device, paced to `rate` messages per second in all, or as fast as possible. */
  | { type: 'send'; rounds: number; rate?: number }
  | { type: 'disconnect' }
  | { type: 'forget'; url: string };

export type DevicesOut =
  | { type: 'online'; secrets: Record<string, string>; ms: number }
  | { type: 'sent'; messages: number; averageBytes: number; ms: number }
  | { type: 'disconnected' }
  | { type: 'forgotten' };

/**
 * The agents report every second; the simulated clock steps past that period plus its 5 %
 * jitter, so every tick sends. It runs ahead of real time (uptime must not go negative)
 * and stays within the 24 h the server accepts for up to 78 000 rounds in all.
 */
const PERIOD_SECONDS = 1;
const STEP_MS = 1100;

let agents: DeviceAgent[] = [];

/** Starts every agent and resolves once all are online with a secret (first contact included). */
async function connect(message: Extract<DevicesIn, { type: 'connect' }>): Promise<DevicesOut> {
  const started = performance.now();
  agents = fleetDevices(message.fleet, message.count).map(
    (identity) =>
      new DeviceAgent({
        url: message.url,
        identity,
        secret: message.secrets?.[identity.serial],
        telemetrySeconds: PERIOD_SECONDS,
        behaviour: { eventChance: 0 },
        reconnectMs: 500,
      }),
  );
  await Promise.all(
    agents.map((agent) => {
      const online = new Promise<void>((resolve) => agent.once('online', () => resolve()));
      agent.start();
      return online;
    }),
  );
  const secrets = Object.fromEntries(agents.map((a) => [a.serial, a.secret ?? '']));
  return { type: 'online', secrets, ms: performance.now() - started };
}

/** The simulated clock: every report has its own time, across runs too. */
let clock = Date.now();

/** Waits until round `round` is due when sending `perSecond` rounds a second; yields at least. */
async function pace(started: number, round: number, perSecond: number | undefined): Promise<void> {
  const due = perSecond ? started + (round * 1000) / perSecond : 0;
  const wait = due - performance.now();
  await new Promise((resolve) => (wait > 1 ? setTimeout(resolve, wait) : setImmediate(resolve)));
}

/**
 * Every agent reports `rounds` times through its own publish path (DeviceAgent.tick), on a
 * simulated clock so that each report has its own time (the telemetry table keeps one point
 * per device and time). Each round yields to the event loop so the sockets drain.
 */
async function send(rounds: number, rate: number | undefined): Promise<DevicesOut> {
  const started = performance.now();
  const roundsPerSecond = rate ? rate / agents.length : undefined;
  clock = Math.max(clock, Date.now()) + STEP_MS;
  let messages = 0;
  let sampledBytes = 0;
  let samples = 0;
  for (let round = 0; round < rounds; round++) {
    clock += STEP_MS;
    for (const agent of agents) {
      const before = agent.state;
      agent.tick(clock);
      if (agent.state === before) continue;
      messages++;
      if (messages % 97 === 0) {
        sampledBytes += Buffer.byteLength(JSON.stringify(agent.state));
        samples++;
      }
    }
    await pace(started, round + 1, roundsPerSecond);
  }
  return {
    type: 'sent',
    messages,
    averageBytes: samples ? sampledBytes / samples : 0,
    ms: performance.now() - started,
  };
}

/**
 * Leaves a shared Mosquitto as it was: drops the persistent sessions (a clean connect
 * under each client id) and clears the retained status of every bench device.
 */
async function forget(url: string): Promise<void> {
  await Promise.all(
    agents.map(async (agent) => {
      const client = await mqtt.connectAsync(url, {
        clientId: agent.serial,
        clean: true,
        reconnectPeriod: 0,
        protocolVersion: 4,
      });
      await client.publishAsync(topics.status(agent.serial), '', { qos: 1, retain: true });
      await client.endAsync();
    }),
  );
}

serveParent<DevicesIn, DevicesOut>(async (message, reply) => {
  switch (message.type) {
    case 'connect':
      return reply(await connect(message));
    case 'send':
      return reply(await send(message.rounds, message.rate));
    case 'disconnect':
      await Promise.all(agents.map((a) => a.stop()));
      return reply({ type: 'disconnected' });
    case 'forget':
      await forget(message.url);
      return reply({ type: 'forgotten' });
  }
});
