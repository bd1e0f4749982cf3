/**
 * Telemetry ingest: messages per second from simulated devices through the
 * embedded broker and the gateway into the database, against bare Mosquitto delivering the
 * same messages from the same publishers to a subscriber that only counts them.
 *
 *   npm run bench:ingest [-- --devices 200 --messages 1000 --rate 10000 --seconds 10 --db pglite]
 *
 * Embedded path measured: `up/state` at QoS 0 → Aedes → access table → inbound router
 * (topic, size) → batched telemetry writer → telemetry worker (JSON, zod, COPY text) →
 * `device_telemetry` rows, `device_state` upserts and `last_seen_at` updates. Figure: rows
 * landed in the database per second, from the first publish to the last row committed.
 * Two loads:
 *
 * - paced: the publishers offer a steady total rate (the 10k msg/s target) for some seconds;
 *   the target is met when every row lands and the writer keeps up;
 * - burst: every device sends `--messages` reports as fast as it can (the ceiling; the
 *   same burst goes through bare Mosquitto for the ratio, before and after the embedded
 *   runs, and the faster bare run is the one compared).
 *
 * During every embedded load a console probe (bench/console-probe.ts, its own process) asks
 * for the devices table's first page every 100 ms as a signed-in operator: the console must
 * keep answering (p99 ≤ 250 ms, nothing over 1 s) while the devices report.
 */
import { parseArgs } from 'node:util';
import { embeddedRuns, type Load, mosquittoAnswers, mosquittoRun, type Run } from './ingest-paths';
import { count, printMachine, printTable, verdict } from './support/report';
import { benchDatabases } from './support/server';

const TARGET_RATE = 10_000;
const TARGET_RATIO = 0.5;
/** The console stays usable during a load: p99 of its devices page, and no answer slower than 1 s. */
const TARGET_CONSOLE_P99_MS = 250;

const rate = (run: Run) => run.landed / run.seconds;

function printRuns(runs: Run[]): void {
  printTable(
    ['path', 'load', 'sent', 'landed', 'seconds', 'msg/s', 'avg bytes'],
    runs.map((r) => [
      r.path,
      r.load,
      count(r.sent),
      count(r.landed),
      r.seconds.toFixed(2),
      count(rate(r)),
      count(r.averageBytes),
    ]),
    2,
  );
  console.log('');
  for (const r of runs) console.log(`- ${r.path}, ${r.load}: ${r.notes.join('; ')}`);
  console.log('');
}

/** Paced: every row landed, at the offered rate. Burst: ratio to bare Mosquitto's burst. */
function printVerdicts(runs: Run[], bare: Run | undefined): void {
  if (!bare) console.log('bare Mosquitto: skipped (nothing answers on 127.0.0.1:1883)');
  for (const r of runs) {
    if (r.console) {
      const c = r.console;
      const kept = c.p99 <= TARGET_CONSOLE_P99_MS && c.overOneSecond === 0 && c.failures === 0;
      console.log(
        `${r.path}, ${r.load}: console p99 ${c.p99.toFixed(0)} ms, max ${c.max.toFixed(0)} ms, ` +
          `${c.overOneSecond} over 1 s, target p99 ≤ ${TARGET_CONSOLE_P99_MS} ms and none over 1 s ${verdict(kept)}`,
      );
    }
    if (r.load.startsWith('paced')) {
      const kept = r.landed === r.sent && rate(r) >= TARGET_RATE * 0.95;
      console.log(
        `${r.path}, ${r.load}: ${count(r.landed)}/${count(r.sent)} rows at ${count(rate(r))} msg/s, ` +
          `target ≥ ${count(TARGET_RATE)} msg/s sustained ${verdict(kept)}`,
      );
    } else if (bare) {
      const ratio = rate(r) / rate(bare);
      console.log(
        `${r.path}, ${r.load}: ${count(rate(r))} msg/s (${count(r.sent - r.landed)} lost) = ${ratio.toFixed(2)}× ` +
          `bare Mosquitto, target ≥ ${TARGET_RATIO}× ${verdict(ratio >= TARGET_RATIO && r.landed === r.sent)}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '200' },
      messages: { type: 'string', default: '1000' },
      rate: { type: 'string', default: String(TARGET_RATE) },
      seconds: { type: 'string', default: '10' },
      db: { type: 'string' },
    },
  });
  const devices = Number(values.devices);
  const burst: Load = { kind: 'burst', rounds: Number(values.messages) };
  const paced: Load = { kind: 'paced', rate: Number(values.rate), seconds: Number(values.seconds) };
  printMachine('Telemetry ingest');
  console.log(`${count(devices)} devices; burst: ${count(burst.rounds)} telemetry messages each (QoS 0)\n`);

  // Bare Mosquitto runs first and last: a database still busy after its burst (checkpoint,
  // autovacuum) slows the machine, and the faster of the two bare runs is the one compared.
  const withMosquitto = await mosquittoAnswers();
  const bares: Run[] = [];
  const bareRun = async (when: string) => ({
    ...(await mosquittoRun(devices, burst)),
    load: `burst, ${when}`,
  });
  if (withMosquitto) bares.push(await bareRun('first'));
  const runs: Run[] = [];
  for (const open of benchDatabases(values.db))
    runs.push(...(await embeddedRuns(await open(), devices, [paced, burst])));
  if (withMosquitto) bares.push(await bareRun('last'));
  const bare = bares.reduce<Run | undefined>(
    (best, r) => (best && rate(best) >= rate(r) ? best : r),
    undefined,
  );
  printRuns([...runs, ...bares]);
  printVerdicts(runs, bare);
}

await main();
