/**
 * The floor of a signed-in request over real HTTP: `GET /api/user` with a session cookie
 * (session, caller, policy, serialiser) against a bare `node:http` server answering the
 * same bytes, on the same number of keep-alive connections, in the same run. The caller
 * comes from memory (modules/auth/caller-cache.ts), so the target is ≥ 0.5× of bare.
 *
 *   npm run bench:http [-- --connections 10 --seconds 5 --rounds 3 --only pglite|postgres]
 *
 * The machine's speed moves by a third within a minute here (docs/performance.md), so the
 * two servers take turns, `--rounds` times each, and the medians are compared.
 * The load comes from a process of its own; the servers share this one, one at a time.
 * Runs on PGlite, and on PostgreSQL too when DATABASE_URL or TEST_DATABASE_URL is set.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Child } from './support/child';
import type { LoadIn, LoadOut } from './support/http-load';
import { count, ms, printMachine, printTable, verdict } from './support/report';
import { ADMIN_EMAIL, ADMIN_PASSWORD, benchDatabases, httpUrl, startServer } from './support/server';

const TARGET_RATIO = 0.5;

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
  },
});
const connections = Number(args.connections);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);

/** The round with the median throughput. */
function median(results: Result[]): Result {
  const sorted = [...results].sort((a, b) => a.perSecond - b.perSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Signs in over HTTP as the console does; answers the headers a signed-in GET carries. */
async function signIn(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, 'x-requested-with': 'XMLHttpRequest', 'accept-encoding': 'identity' };
}

/** A server that answers every request with the bytes and headers it was given. */
async function bareServer(body: Buffer, contentType: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

type Result = Omit<LoadOut, 'type'>;

async function load(child: Child<LoadIn, LoadOut>, url: string, headers: Record<string, string>) {
  const { type: _type, ...result } = await child.request(
    { type: 'run', url, headers, connections, seconds, warmupSeconds: 1 },
    'result',
  );
  return result as Result;
}

printMachine(
  `Signed-in request floor: GET /api/user against bare node:http (${connections} connections, ${seconds} s, medians of ${rounds} alternating rounds)`,
);
const child = new Child<LoadIn, LoadOut>(new URL('./support/http-load.ts', import.meta.url));
const rows: string[][] = [];
const summary: string[] = [];
try {
  for (const open of benchDatabases(args.only)) {
    const database = await open();
    const app = await startServer(database, { broker: false, listen: true });
    try {
      const base = httpUrl(app);
      const headers = await signIn(base);
      const sample = await fetch(`${base}/api/user`, { headers });
      if (sample.status !== 200) throw new Error(`GET /api/user: ${sample.status}`);
      const body = Buffer.from(await sample.arrayBuffer());
      const bare = await bareServer(body, sample.headers.get('content-type') ?? 'application/json');
      const ours: Result[] = [];
      const theirs: Result[] = [];
      for (let round = 0; round < rounds; round++) {
        ours.push(await load(child, `${base}/api/user`, headers));
        theirs.push(await load(child, bare.url, headers));
      }
      bare.server.close();
      const fleetgate = median(ours);
      const plain = median(theirs);
      console.log(
        `${database.label}: Fleetgate ${ours.map((r) => count(r.perSecond)).join(', ')} req/s; bare ${theirs.map((r) => count(r.perSecond)).join(', ')} req/s`,
      );
      const ratio = fleetgate.perSecond / plain.perSecond;
      for (const [name, r] of [
        [`Fleetgate GET /api/user (${database.label})`, fleetgate],
        [`bare node:http, same ${body.length} bytes`, plain],
      ] as const) {
        rows.push([name, count(r.perSecond), ms(r.p50), ms(r.p99), ms(r.max), count(r.failures)]);
      }
      summary.push(
        `${database.label}: ${ratio.toFixed(2)}× of bare node:http (target ≥ ${TARGET_RATIO}×: ${verdict(ratio >= TARGET_RATIO)}); ${count(app.callers.size())} caller(s) kept`,
      );
    } finally {
      await app.close();
      await database.dispose();
    }
  }
} finally {
  await child.close();
}
console.log('');
printTable(['server', 'requests/s', 'p50 ms', 'p99 ms', 'max ms', 'failed'], rows);
console.log('');
for (const line of summary) console.log(line);
