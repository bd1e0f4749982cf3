/**
 * The two paths bench/ingest.ts compares, driven by the same publishers (ingest-devices.ts):
 * the embedded broker and gateway into a database, and bare Mosquitto into a subscriber
 * that only counts.
 */
import { createConnection } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fleetDevices } from '@fleetgate/device-sim/identity';
import { registerThroughApi } from '@fleetgate/device-sim/register';
import { deviceTelemetry } from '@fleetgate/server/db/schema/devices';
import { runningWorkers } from '@fleetgate/server/worker-thread';
import { TOPIC_ROOT } from '@fleetgate/shared/devices/topics';
import { count as countRows } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import type { ProbeIn, ProbeOut } from './console-probe';
import type { DevicesIn, DevicesOut } from './ingest-devices';
import { Child } from './support/child';
import { waitForCount } from './support/progress';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type BenchDatabase,
  brokerUrl,
  httpUrl,
  startServer,
} from './support/server';

export const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';
/** Fleet number of the bench devices (serials 1188xxxxxx), apart from the demo's and the tests'. */
const FLEET = 88;
/** How long nothing may happen before a run counts what it has. */
const STALL_MS = 10_000;

/** As fast as the publishers go, or paced to a total rate for some seconds. */
export type Load = { kind: 'burst'; rounds: number } | { kind: 'paced'; rate: number; seconds: number };

export type Run = {
  path: string;
  load: string;
  sent: number;
  landed: number;
  /** From the first publish to the last message counted or row committed. */
  seconds: number;
  averageBytes: number;
  /** The console's devices page asked during the load (embedded paths only). */
  console?: ConsoleView;
  notes: string[];
};

type Sent = Extract<DevicesOut, { type: 'sent' }>;

type Publishers = Child<DevicesIn, DevicesOut>;

const publishersProcess = (): Publishers => new Child(new URL('./ingest-devices.ts', import.meta.url));

type Probe = Child<ProbeIn, ProbeOut>;
const probeProcess = (): Probe => new Child(new URL('./console-probe.ts', import.meta.url));

/** What the console saw during a load: answers of its devices page, as the limits read them. */
export type ConsoleView = {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  overOneSecond: number;
  failures: number;
};

function consoleView(stopped: Extract<ProbeOut, { type: 'stopped' }>): ConsoleView {
  const sorted = [...stopped.latenciesMs].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return {
    requests: sorted.length + stopped.unanswered,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
    overOneSecond: sorted.filter((ms) => ms > 1000).length + stopped.unanswered,
    failures: stopped.failures,
  };
}

const percent = (share: number) => `${(share * 100).toFixed(0)} %`;

const describeLoad = (load: Load) =>
  load.kind === 'burst' ? 'burst' : `paced ${load.rate / 1000}k/s × ${load.seconds} s`;

function sendRequest(load: Load, devices: number): Extract<DevicesIn, { type: 'send' }> {
  return load.kind === 'burst'
    ? { type: 'send', rounds: load.rounds }
    : { type: 'send', rounds: Math.round((load.rate * load.seconds) / devices), rate: load.rate };
}

async function rowsIn(app: FastifyInstance): Promise<number> {
  const [row] = await app.db.select({ n: countRows() }).from(deviceTelemetry);
  return row?.n ?? 0;
}

/**
 * One load through the embedded broker: polls the telemetry writer until every point is
 * written or dropped (or nothing happens for STALL_MS), then counts the rows. The writer flushes every
 * 2000 points or every second; once the gateway has every message the bench flushes at
 * once, so the figure is throughput rather than the timer's wait.
 */
async function embeddedLoad(
  app: FastifyInstance,
  publishers: Publishers,
  probe: Probe,
  load: Load,
  devices: number,
) {
  const request = sendRequest(load, devices);
  const target = request.rounds * devices;
  const rowsBefore = await rowsIn(app);
  const writtenBefore = app.gateway.telemetry.written;
  const droppedBefore = app.gateway.telemetry.dropped;
  const receivedBefore = app.gateway.telemetry.received;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let receivedAt = Number.NaN;
  let sent: Sent | undefined;

  await probe.request(
    { type: 'start', url: httpUrl(app), email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    'started',
  );
  loop.enable();
  const busyBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const workersBefore = new Map(
    runningWorkers().map(({ worker }) => [worker, worker.performance.eventLoopUtilization()]),
  );
  const t0 = performance.now();
  const sending = publishers.request(request, 'sent').then((s) => {
    sent = s;
  });
  const progress = await waitForCount(
    () => {
      if (Number.isNaN(receivedAt) && app.gateway.telemetry.received - receivedBefore >= target) {
        receivedAt = performance.now();
        void app.gateway.telemetry.flush();
      }
      // Every point is accounted for once it is written or dropped (the writer's buffer is bounded).
      const { written, dropped } = app.gateway.telemetry;
      return written - writtenBefore + dropped - droppedBefore;
    },
    target,
    { stallMs: STALL_MS },
  );
  loop.disable();
  const view = consoleView(await probe.request({ type: 'stop' }, 'stopped'));
  const busy = performance.eventLoopUtilization(busyBefore);
  const cpu = process.cpuUsage(cpuBefore);
  const workersBusy = runningWorkers().map(({ worker, name }) => {
    const { utilization } = worker.performance.eventLoopUtilization(workersBefore.get(worker));
    return `${name} ${percent(utilization)}`;
  });
  await sending;
  const landed = (await rowsIn(app)) - rowsBefore;
  const seconds = (progress.lastIncreaseAt - t0) / 1000;
  const publishedSeconds = sent!.ms / 1000;
  return {
    load: describeLoad(load),
    sent: sent!.messages,
    landed,
    seconds,
    averageBytes: sent!.averageBytes,
    console: view,
    notes: [
      `console GET ${'/api/devices?limit=50'} every 100 ms: ${view.requests} asked, p50 ${view.p50.toFixed(0)} ms, ` +
        `p99 ${view.p99.toFixed(0)} ms, max ${view.max.toFixed(0)} ms, ${view.overOneSecond} over 1 s, ${view.failures} failed`,
      `publishers done after ${publishedSeconds.toFixed(1)} s`,
      Number.isNaN(receivedAt)
        ? 'the gateway never had every message'
        : `gateway had every message after ${((receivedAt - t0) / 1000).toFixed(1)} s`,
      `last row ${(seconds - publishedSeconds).toFixed(1)} s after the last publish`,
      `writer dropped ${app.gateway.telemetry.dropped - droppedBefore} points`,
      `event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`,
      `threads busy: server ${[percent(busy.utilization), ...workersBusy].join(', ')}`,
      `server process CPU ${((cpu.user + cpu.system) / target).toFixed(1)} µs per message (${((100 * cpu.system) / (cpu.user + cpu.system)).toFixed(0)} % system)`,
    ],
  };
}

/**
 * The embedded broker and gateway on one database: devices registered through the API (CSV
 * import), first contact with serial and MAC, reconnect with the secret, then each load.
 */
export async function embeddedRuns(database: BenchDatabase, devices: number, loads: Load[]): Promise<Run[]> {
  const app = await startServer(database, { broker: true, listen: true });
  const publishers = publishersProcess();
  const probe = probeProcess();
  try {
    await registerThroughApi({
      api: httpUrl(app),
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      companyId: 1,
      devices: fleetDevices(FLEET, devices),
    });
    const online = await publishers.request(
      { type: 'connect', url: brokerUrl(app), fleet: FLEET, count: devices },
      'online',
    );
    const runs: Run[] = [];
    for (const load of loads) {
      const result = await embeddedLoad(app, publishers, probe, load, devices);
      runs.push({ path: `embedded → gateway → ${database.label}`, ...result });
    }
    const stats = app.gateway.stats();
    runs[0]?.notes.push(
      `first contact of ${devices} devices took ${(online.ms / 1000).toFixed(1)} s; ` +
        `handler failures ${stats.failed}, malformed ${stats.droppedMalformed}`,
    );
    await publishers.request({ type: 'disconnect' }, 'disconnected');
    return runs;
  } finally {
    await probe.close();
    await publishers.close();
    await app.close();
    await database.dispose();
  }
}

export function mosquittoAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 1883, timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Bare Mosquitto: the same publishers and load, one subscriber counting the bench devices'
 * telemetry. Mosquitto does not check the secrets (anonymous access); the devices still
 * connect, subscribe and say hello as they do to the embedded broker. Afterwards their
 * persistent sessions and retained status are removed again.
 */
export async function mosquittoRun(devices: number, load: Load): Promise<Run> {
  const serials = new Set(fleetDevices(FLEET, devices).map((d) => d.serial));
  let counted = 0;
  const counter = await mqtt.connectAsync(MOSQUITTO_URL, {
    clientId: `fleetgate-bench-counter-${process.pid}`,
    clean: true,
    protocolVersion: 4,
  });
  counter.on('message', (topic) => {
    if (serials.has(topic.split('/')[3] ?? '')) counted++;
  });
  await counter.subscribeAsync(`${TOPIC_ROOT}/+/up/state`, { qos: 0 });
  const publishers = publishersProcess();
  const probe = probeProcess();
  try {
    const secrets = Object.fromEntries([...serials].map((serial) => [serial, 'not-checked-by-mosquitto']));
    await publishers.request(
      { type: 'connect', url: MOSQUITTO_URL, fleet: FLEET, count: devices, secrets },
      'online',
    );
    const request = sendRequest(load, devices);
    const t0 = performance.now();
    const sending = publishers.request(request, 'sent');
    const progress = await waitForCount(() => counted, request.rounds * devices, { stallMs: STALL_MS });
    const sent = await sending;
    await publishers.request({ type: 'disconnect' }, 'disconnected');
    await publishers.request({ type: 'forget', url: MOSQUITTO_URL }, 'forgotten');
    return {
      path: 'bare Mosquitto → counting subscriber',
      load: describeLoad(load),
      sent: sent.messages,
      landed: progress.value,
      seconds: (progress.lastIncreaseAt - t0) / 1000,
      averageBytes: sent.averageBytes,
      notes: [
        `publishers done after ${(sent.ms / 1000).toFixed(1)} s`,
        progress.complete
          ? 'every message counted'
          : `${sent.messages - progress.value} messages lost (QoS 0)`,
      ],
    };
  } finally {
    await probe.close();
    await publishers.close();
    await counter.endAsync();
  }
}
