/**
 * A load generator in a process of its own (bench/support/child.ts): keeps `connections`
 * requests in flight on as many keep-alive connections for `seconds`, after a warm-up, and
 * answers the throughput and latency it saw. undici's Pool is the client: the same one
 * Node's fetch is built on, without fetch's per-request overhead.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { serveParent } from './child';
import { percentile } from './report';

export type LoadIn = {
  type: 'run';
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
};
export type LoadOut = {
  type: 'result';
  requests: number;
  failures: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
};

async function run(message: LoadIn): Promise<LoadOut> {
  const url = new URL(message.url);
  const pool = new Pool(url.origin, { connections: message.connections, pipelining: 1 });
  const path = url.pathname + url.search;
  const latencies: number[] = [];
  let failures = 0;
  let recording = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const started = performance.now();
      try {
        const response = await pool.request({ method: 'GET', path, headers: message.headers });
        await response.body.dump();
        if (recording) {
          if (response.statusCode === 200) latencies.push(performance.now() - started);
          else failures++;
        }
      } catch {
        if (recording) failures++;
      }
    }
  };
  const workers = Array.from({ length: message.connections }, worker);
  await new Promise((resolve) => setTimeout(resolve, message.warmupSeconds * 1000));
  recording = true;
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, message.seconds * 1000));
  recording = false;
  const elapsed = (performance.now() - began) / 1000;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  return {
    type: 'result',
    requests: latencies.length,
    failures,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    // A loop, not Math.max(...latencies): a fast server leaves more entries than the stack holds.
    max: latencies.reduce((most, value) => (value > most ? value : most), 0),
  };
}

serveParent<LoadIn, LoadOut>(async (message, reply) => {
  if (message.type === 'run') reply(await run(message));
});
