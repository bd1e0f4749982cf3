/**
 * Remote access through a device tunnel, measured end to end with a real simulated device:
 *
 * 1. Throughput of one stream: a client reads N MB from a service of the device's LAN through
 *    a port forward (client → server → tunnel WebSocket → device agent → service), against a
 *    bare `ws` pipe of the same bytes (service → WebSocket → client) in the same run. Target:
 *    ≥ 0.5× and ≥ 50 MB/s.
 *    The same bytes as a file downloaded by SFTP: through the console's file browser (SFTP
 *    over SSH through the tunnel, streamed by the REST API) and through a port forward, against
 *    the same SFTP client over a bare `ws` pipe straight to the device's SSH service. Target
 *    for the file browser: ≥ 0.5× and ≥ 50 MB/s.
 * 2. Keystroke round trip in the SSH console: a key sent on the terminal WebSocket, echoed by
 *    the device's shell, back on the WebSocket. Target: p99 ≤ 20 ms on loopback; and with
 *    `--sessions` consoles open and typing at once on one server, p99 ≤ 50 ms.
 * 3. Memory per idle open stream: `--idle` streams held open through a port forward to a
 *    service that says nothing, the process's memory before and after (the server and the
 *    simulated device both live in this process, so it is both ends of a stream).
 *
 *   npm run bench:remote [-- --megabytes 100 --keys 300 --sessions 200 --idle 200]
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import path from 'node:path';
import { type Duplex, Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { DeviceAgent } from '@fleetgate/device-sim/agent';
import { fleetDevice } from '@fleetgate/device-sim/identity';
import { DeviceServices } from '@fleetgate/device-sim/services';
import { readAhead } from '@fleetgate/server/modules/remote/sftp';
import { CONNECT_TERMINAL_PATH } from '@fleetgate/shared/devices/tunnel';
import { type SFTPWrapper, Client as SshClient } from 'ssh2';
import WebSocket, { createWebSocketStream, WebSocketServer } from 'ws';
import { ms, percentile, printMachine, printTable, verdict } from './support/report';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  brokerUrl,
  httpUrl,
  pgliteDatabase,
  startServer,
} from './support/server';

const { values: args } = parseArgs({
  options: {
    megabytes: { type: 'string', default: '100' },
    keys: { type: 'string', default: '300' },
    sessions: { type: 'string', default: '200' },
    idle: { type: 'string', default: '200' },
  },
});
const BYTES = Number(args.megabytes) * 1024 * 1024;
const KEYS = Number(args.keys);
const SESSIONS = Number(args.sessions);
const IDLE = Number(args.idle);
/** Keys each of the concurrent consoles types. */
const KEYS_EACH = 20;
const SILENT_PORT = 20;
const LAN_HOST = '192.168.1.20';
const LAN_PORT = 19;

/** A service that sends BYTES to whoever connects, then closes. */
async function source(): Promise<Server> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = createServer((socket) => {
    let left = BYTES;
    const pump = () => {
      while (left > 0) {
        const size = Math.min(left, chunk.length);
        left -= size;
        if (!socket.write(size === chunk.length ? chunk : chunk.subarray(0, size)))
          return void socket.once('drain', pump);
      }
      socket.end();
    };
    socket.on('error', () => socket.destroy());
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** Reads a TCP connection to its end; answers the bytes and the seconds it took. */
async function drain(
  socket: NodeJS.ReadableStream & { destroy(): void },
): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  let bytes = 0;
  for await (const chunk of socket) bytes += (chunk as Buffer).length;
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/** The same bytes over a bare WebSocket: service → ws server → ws client. */
async function bareWs(service: Server): Promise<{ bytes: number; seconds: number }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await once(wss, 'listening');
  wss.on('connection', (ws) => {
    const tcp = connect((service.address() as AddressInfo).port, '127.0.0.1');
    const stream = createWebSocketStream(ws);
    tcp.pipe(stream);
  });
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, {
    perMessageDeflate: false,
  });
  await once(ws, 'open');
  const result = await drain(createWebSocketStream(ws));
  wss.close();
  return result;
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function api<T>(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1];
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'x-requested-with': 'XMLHttpRequest',
      ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A console signed in to the device and showing its prompt; `type` measures key round trips. */
async function openConsole(base: string, cookie: string, deviceId: number, password: string) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}${CONNECT_TERMINAL_PATH}?device_id=${deviceId}`, {
    headers: { cookie, origin: base },
  });
  await once(ws, 'open');
  let screen = 0;
  let prompt = '';
  let waiting: (() => void) | undefined;
  ws.on('message', (data: Buffer, binary) => {
    if (!binary) return;
    screen += data.length;
    if (prompt.length < 4096) prompt += data.toString();
    waiting?.();
  });
  ws.send(JSON.stringify({ type: 'auth', username: 'admin', password, cols: 120, rows: 40 }));
  while (!prompt.includes('# ')) await new Promise<void>((resolve) => (waiting = resolve));
  return {
    /** Types `count` letters one after another; answers each one's round trip in ms. */
    async type(count: number): Promise<number[]> {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        const before = screen;
        const started = performance.now();
        ws.send(Buffer.from('x'));
        while (screen === before) await new Promise<void>((resolve) => (waiting = resolve));
        samples.push(performance.now() - started);
      }
      return samples;
    },
    close: () => ws.close(),
  };
}

/**
 * An SFTP download of `name` over `sock` (the same client and read-ahead as the console's file
 * browser): signs in to the device's SSH, reads the file to its end.
 */
async function sftpGet(
  sock: Duplex,
  password: string,
  name: string,
): Promise<{ bytes: number; seconds: number }> {
  const client = new SshClient();
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    client.once('error', reject);
    client.once('ready', () => client.sftp((error, opened) => (error ? reject(error) : resolve(opened))));
    client.connect({ sock, username: 'admin', password });
  });
  const size = await new Promise<number>((resolve, reject) =>
    sftp.stat(name, (error, stats) => (error ? reject(error) : resolve(stats.size))),
  );
  const result = await drain(readAhead(sftp, name, size));
  client.end();
  return result;
}

/** A bare `ws` pipe to a TCP service: ws server → service, the client end as a stream. */
async function wsPipeTo(address: { host: string; port: number }) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await once(wss, 'listening');
  wss.on('connection', (ws) => {
    const tcp = connect(address.port, address.host);
    const stream = createWebSocketStream(ws);
    tcp.pipe(stream).pipe(tcp);
    stream.on('error', () => tcp.destroy());
    tcp.on('error', () => stream.destroy());
  });
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, {
    perMessageDeflate: false,
  });
  await once(ws, 'open');
  return { stream: createWebSocketStream(ws), close: () => wss.close() };
}

/** A service that accepts connections and says nothing: what idle streams hold open. */
async function silent(): Promise<Server> {
  const server = createServer((socket) => socket.on('error', () => socket.destroy()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** Memory in use once garbage is collected and the loop has settled (run with --expose-gc). */
const memory = async () => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const used = process.memoryUsage();
  // RSS is left out: the allocator returns pages as it likes, so its difference is noise.
  return { heap: used.heapUsed + used.external + used.arrayBuffers };
};

printMachine(`Remote access: one tunnel stream of ${args.megabytes} MB, and ${KEYS} console keystrokes`);
const database = pgliteDatabase();
const app = await startServer(database, { broker: true, listen: true });
const service = await source();
const quiet = await silent();
let agent: DeviceAgent | undefined;
try {
  const base = httpUrl(app);
  const cookie = await signIn(base);
  const identity = fleetDevice(88, 1);
  const device = await api<{ id: number }>(base, cookie, 'POST', '/api/devices', {
    serial: identity.serial,
    mac: identity.mac,
    company_id: 1,
  });
  agent = new DeviceAgent({
    url: brokerUrl(app),
    identity,
    behaviour: { commandDelayMs: [0, 1], failureRate: 0 },
  });
  agent.services = await DeviceServices.start(agent);
  agent.services.serve(LAN_HOST, LAN_PORT, {
    host: '127.0.0.1',
    port: (service.address() as AddressInfo).port,
  });
  agent.services.serve(LAN_HOST, SILENT_PORT, {
    host: '127.0.0.1',
    port: (quiet.address() as AddressInfo).port,
  });
  const online = once(agent, 'online');
  agent.start();
  await online;

  const entry = await api<{ id: number }>(base, cookie, 'POST', '/api/devices/remote-access', {
    device_id: device.id,
    name: 'Bench source',
    protocol: 'tcp',
    host: LAN_HOST,
    port: LAN_PORT,
  });
  const forward = await api<{ port: number }>(base, cookie, 'POST', '/api/remote/forwards', {
    entry_id: entry.id,
    minutes: 10,
  });
  const tunnelled = await drain(connect(forward.port, '127.0.0.1'));
  const bare = await bareWs(service);

  // The same bytes as a file of the device, downloaded through the file browser.
  await writeFile(path.join(agent.services.folder.root, 'tmp/bench.bin'), Buffer.alloc(BYTES, 0x62));
  const browser = await api<{ id: string }>(base, cookie, 'POST', '/api/remote/sftp', {
    device_id: device.id,
    username: 'admin',
    password: agent.password,
  });
  const download = await fetch(`${base}/api/remote/sftp/${browser.id}/file?path=/tmp/bench.bin`, {
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
  });
  const sftp = await drain(Readable.fromWeb(download.body as never));
  await api(base, cookie, 'DELETE', `/api/remote/sftp/${browser.id}`);

  // One SFTP download's stream through the tunnel (a forward to the device's SSH) against the
  // same download over a bare ws pipe straight to the device's SSH service.
  const sshForward = await api<{ port: number }>(base, cookie, 'POST', '/api/remote/forwards', {
    device_id: device.id,
    minutes: 10,
  });
  const sftpTunnelled = await sftpGet(
    connect(sshForward.port, '127.0.0.1'),
    agent.password,
    '/tmp/bench.bin',
  );
  const pipe = await wsPipeTo(agent.services.resolve('127.0.0.1', 22)!);
  const sftpBare = await sftpGet(pipe.stream, agent.password, '/tmp/bench.bin');
  pipe.close();

  const single = await openConsole(base, cookie, device.id, agent.password);
  const keys = await single.type(KEYS);
  single.close();

  // SESSIONS consoles at once: opened together, then all typing together.
  const consoles = await Promise.all(
    Array.from({ length: SESSIONS }, () => openConsole(base, cookie, device.id, agent!.password)),
  );
  const together = (await Promise.all(consoles.map((c) => c.type(KEYS_EACH)))).flat();
  for (const c of consoles) c.close();

  // IDLE streams held open through a forward to a service that says nothing.
  const silentEntry = await api<{ id: number }>(base, cookie, 'POST', '/api/devices/remote-access', {
    device_id: device.id,
    name: 'Bench silence',
    protocol: 'tcp',
    host: LAN_HOST,
    port: SILENT_PORT,
  });
  const silentForward = await api<{ id: string; port: number }>(
    base,
    cookie,
    'POST',
    '/api/remote/forwards',
    {
      entry_id: silentEntry.id,
      minutes: 10,
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await memory();
  const held = await Promise.all(
    Array.from({ length: IDLE }, async () => {
      const socket = connect(silentForward.port, '127.0.0.1');
      await once(socket, 'connect');
      return socket;
    }),
  );
  // Every stream is open once the forward counts its connections and the device has answered.
  for (;;) {
    const open = await api<{ id: string; connections: number }[]>(
      base,
      cookie,
      'GET',
      '/api/remote/forwards',
    );
    if ((open.find((f) => f.id === silentForward.id)?.connections ?? 0) >= IDLE) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await memory();
  for (const socket of held) socket.destroy();

  const rate = (r: { bytes: number; seconds: number }) => r.bytes / 1024 / 1024 / r.seconds;
  const ratio = rate(tunnelled) / rate(bare);
  const row = (label: string, r: { bytes: number; seconds: number }) => [
    label,
    (r.bytes / 1024 / 1024).toFixed(0),
    r.seconds.toFixed(2),
    rate(r).toFixed(1),
  ];
  printTable(
    ['path', 'MB', 'seconds', 'MB/s'],
    [
      row('port forward through the device tunnel', tunnelled),
      row('bare ws pipe, same bytes', bare),
      row('SFTP download through the device tunnel', sftpTunnelled),
      row('SFTP download over a bare ws pipe', sftpBare),
      row('SFTP download in the file browser (REST)', sftp),
    ],
  );
  console.log();
  printTable(
    ['console keystroke round trip', 'p50 ms', 'p99 ms', 'max ms'],
    [
      ['SSH through the tunnel', ms(percentile(keys, 50)), ms(percentile(keys, 99)), ms(Math.max(...keys))],
      [
        `${SESSIONS} consoles typing at once`,
        ms(percentile(together, 50)),
        ms(percentile(together, 99)),
        ms(Math.max(...together)),
      ],
    ],
  );
  console.log();
  const perStream = (bytes: number) => `${(bytes / IDLE / 1024).toFixed(1)} KiB`;
  printTable(
    ['idle open streams', 'streams', 'heap + buffers per stream'],
    [['port forward → tunnel → device → silent service', String(IDLE), perStream(after.heap - before.heap)]],
  );
  console.log();
  console.log(
    `stream: ${ratio.toFixed(2)}× of bare ws (target ≥ 0.5×: ${verdict(ratio >= 0.5)}), ${rate(tunnelled).toFixed(1)} MB/s (target ≥ 50: ${verdict(rate(tunnelled) >= 50)})`,
  );
  console.log(
    `keystrokes: p99 ${ms(percentile(keys, 99))} ms (target ≤ 20 ms: ${verdict(percentile(keys, 99) <= 20)})`,
  );
  console.log(
    `${SESSIONS} consoles: p99 ${ms(percentile(together, 99))} ms (target ≤ 50 ms: ${verdict(percentile(together, 99) <= 50)})`,
  );
  // The product's SFTP download is the file browser's; the forward's row adds a client's TCP hop.
  const sftpRatio = rate(sftp) / rate(sftpBare);
  console.log(
    `SFTP download (file browser): ${sftpRatio.toFixed(2)}× of the same SFTP over bare ws (target ≥ 0.5×: ${verdict(sftpRatio >= 0.5)}), ${rate(sftp).toFixed(1)} MB/s (target ≥ 50: ${verdict(rate(sftp) >= 50)}); through a port forward ${(rate(sftpTunnelled) / rate(sftpBare)).toFixed(2)}×, ${rate(sftpTunnelled).toFixed(1)} MB/s`,
  );
  if (sftp.bytes !== BYTES) throw new Error(`the file browser carried ${sftp.bytes} of ${BYTES} bytes`);
  if (tunnelled.bytes !== BYTES) throw new Error(`the tunnel carried ${tunnelled.bytes} of ${BYTES} bytes`);
} finally {
  await agent?.services?.close();
  await agent?.stop();
  service.close();
  quiet.close();
  await app.close();
  await database.dispose();
}
