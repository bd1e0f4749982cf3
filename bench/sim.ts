/**
 * Simulator capacity: simulated devices in one process against the
 * embedded broker, and the memory each idle device connection costs that process. The
 * simulator process grows step by step (1000, 2000, then 4000 devices by default); after each
 * step, once idle and after full collections, its RSS and V8 heap are read:
 *
 * - average per connection: growth over the process before any device existed / devices;
 * - marginal per connection: growth from the previous step / devices added (the slope,
 *   without the one-off cost of loading and compiling the simulator's code).
 *
 * The server process's JS growth per device connection added (Aedes client, gateway session;
 * PGlite's memory is an ArrayBuffer and counts too) is printed for information.
 *
 *   npm run bench:sim [-- --devices 1000,2000,4000 --settle 10]
 */
import { parseArgs } from 'node:util';
import { fleetDevices } from '@fleetgate/device-sim/identity';
import { registerThroughApi } from '@fleetgate/device-sim/register';
import type { FastifyInstance } from 'fastify';
import type { FleetIn, FleetOut } from './sim-fleet';
import { Child } from './support/child';
import { type Memory, memoryNow, perItem } from './support/memory';
import { count, printMachine, printTable, verdict } from './support/report';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  brokerUrl,
  httpUrl,
  pgliteDatabase,
  startServer,
} from './support/server';

const TARGET_KB = 33;
/** Fleet number of the first step (serials 1180xxxxxx); each step registers a fleet of its own. */
const FIRST_FLEET = 80;

type Step = { total: number; online: number; connectMs: number; sim: Memory; server: Memory };

type SimChild = Child<FleetIn, FleetOut>;

/** Registers `count` devices of `fleet` through the API and brings them online in the simulator. */
async function addDevices(
  app: FastifyInstance,
  child: SimChild,
  step: { fleet: number; count: number; total: number; settleMs: number },
): Promise<Step> {
  await registerThroughApi({
    api: httpUrl(app),
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    companyId: 1,
    devices: fleetDevices(step.fleet, step.count),
  });
  const grown = await child.request(
    { type: 'grow', url: brokerUrl(app), fleet: step.fleet, count: step.count, settleMs: step.settleMs },
    'grown',
  );
  return {
    total: step.total,
    online: grown.online,
    connectMs: grown.connectMs,
    sim: grown.memory,
    server: await memoryNow(),
  };
}

function report(baseline: { sim: Memory; server: Memory }, steps: Step[]): void {
  const kb = (value: number) => value.toFixed(1);
  printTable(
    [
      'devices',
      'online',
      'step s',
      'sim RSS MB',
      'avg RSS KB/conn',
      'marginal RSS KB/conn',
      'avg JS KB/conn',
      'marginal JS KB/conn',
      'server marginal JS KB/conn',
    ],
    steps.map((s, i) => {
      const previous = i === 0 ? { ...baseline, online: 0 } : steps[i - 1]!;
      const added = s.online - previous.online;
      const average = perItem(baseline.sim, s.sim, s.online);
      const marginal = perItem(previous.sim, s.sim, added);
      return [
        count(s.total),
        count(s.online),
        (s.connectMs / 1000).toFixed(1),
        (s.sim.rss / 2 ** 20).toFixed(0),
        kb(average.rss),
        kb(marginal.rss),
        kb(average.js),
        kb(marginal.js),
        kb(perItem(previous.server, s.server, added).js),
      ];
    }),
  );
  const last = steps.at(-1)!;
  const average = perItem(baseline.sim, last.sim, last.online).rss;
  console.log(
    `\n${count(last.online)}/${count(last.total)} devices online in one simulator process; ` +
      `${kb(average)} KB RSS per idle device connection (average), target ≤ ${TARGET_KB} KB ` +
      verdict(last.online === last.total && average <= TARGET_KB),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '1000,2000,4000' },
      settle: { type: 'string', default: '10' },
    },
  });
  const totals = values.devices.split(',').map(Number);
  const settleMs = Number(values.settle) * 1000;
  printMachine('Simulator connections and memory');

  const database = pgliteDatabase();
  const app = await startServer(database, { broker: true, listen: true });
  const child: SimChild = new Child(new URL('./sim-fleet.ts', import.meta.url), ['--expose-gc']);
  try {
    const baseline = {
      sim: (await child.request({ type: 'baseline' }, 'baseline')).memory,
      server: await memoryNow(),
    };
    const steps: Step[] = [];
    for (const [index, total] of totals.entries()) {
      const added = total - (index === 0 ? 0 : totals[index - 1]!);
      steps.push(await addDevices(app, child, { fleet: FIRST_FLEET + index, count: added, total, settleMs }));
    }
    report(baseline, steps);
  } finally {
    await child.close();
    await app.close();
    await database.dispose();
  }
}

await main();
