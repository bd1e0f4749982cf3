/**
 * The simulator of bench/sim.ts, in its own process (started with --expose-gc): fleets of
 * apps/device-sim devices added step by step, memory measured before the first and after
 * each step once the whole process is idle.
 */
import { Fleet } from '@fleetgate/device-sim/fleet';
import { fleetDevices } from '@fleetgate/device-sim/identity';
import { serveParent } from './support/child';
import { type Memory, memoryNow } from './support/memory';
import { sleep } from './support/time';

export type FleetIn =
  | { type: 'baseline' }
  | { type: 'grow'; url: string; fleet: number; count: number; settleMs: number };
export type FleetOut =
  | { type: 'baseline'; memory: Memory }
  | { type: 'grown'; online: number; connectMs: number; memory: Memory };

/** How long one step's devices may take to come online. */
const ONLINE_TIMEOUT_MS = 180_000;

const fleets: Fleet[] = [];

const online = () => fleets.reduce((sum, f) => sum + f.online(), 0);

async function waitOnline(total: number): Promise<void> {
  const end = Date.now() + ONLINE_TIMEOUT_MS;
  while (online() < total && Date.now() < end) await sleep(100);
}

/**
 * Adds a fleet of `count` devices and waits until they are online (first contact, secret,
 * hello, one telemetry report) and the process has been idle for `settleMs`: every device
 * connected, keep-alives only.
 */
async function grow(message: Extract<FleetIn, { type: 'grow' }>): Promise<FleetOut> {
  const started = performance.now();
  const fleet = new Fleet({
    url: message.url,
    devices: fleetDevices(message.fleet, message.count),
    connectPerSecond: 500,
    reconnectMs: 1000,
  });
  fleets.push(fleet);
  await fleet.start();
  const expected = online() - fleet.online() + message.count;
  await waitOnline(expected);
  const connectMs = performance.now() - started;
  await sleep(message.settleMs);
  return { type: 'grown', online: online(), connectMs, memory: await memoryNow() };
}

serveParent<FleetIn, FleetOut>(async (message, reply) => {
  if (message.type === 'baseline') return reply({ type: 'baseline', memory: await memoryNow() });
  reply(await grow(message));
});
