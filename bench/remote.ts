/**
 * Remote access through a device tunnel, measured end to end with a real simulated device:
 *
 * 1. Throughput of one stream: a client reads N MB from a service of the device's LAN through
 *    a port forward (client → server → tunnel WebSocket → device agent → service), against a
 *    bare `ws` pipe of the same bytes (service → WebSocket → client) in the same run. Target:
 *    ≥ 0.5× and ≥ 50 MB/s.
 * 2. Keystroke round trip in the SSH console: a key sent on the terminal WebSocket, echoed by
 *    the device's shell, back on the WebSocket. Target: p99 ≤ 20 ms on loopback.
 *
 *   npm run bench:remote [-- --megabytes 100 --keys 300]
 */
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { parseArgs } from 'node:util';
import { DeviceAgent } from '@fleetgate/device-sim/agent';
import { fleetDevice } from '@fleetgate/device-sim/identity';
import { DeviceServices } from '@fleetgate/device-sim/services';
import { CONNECT_TERMINAL_PATH } from '@fleetgate/shared/devices/tunnel';
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
  options: { megabytes: { type: 'string', default: '100' }, keys: { type: 'string', default: '300' } },
});
const BYTES = Number(args.megabytes) * 1024 * 1024;
const KEYS = Number(args.keys);
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
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Keystroke round trips on the console's WebSocket: a letter typed, its echo read back. */
async function keystrokes(
  base: string,
  cookie: string,
  deviceId: number,
  password: string,
): Promise<number[]> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}${CONNECT_TERMINAL_PATH}?device_id=${deviceId}`, {
    headers: { cookie, origin: base },
  });
  await once(ws, 'open');
  let screen = '';
  let waiting: (() => void) | undefined;
  ws.on('message', (data, binary) => {
    if (!binary) return;
    screen += data.toString();
    waiting?.();
  });
  ws.send(JSON.stringify({ type: 'auth', username: 'admin', password, cols: 120, rows: 40 }));
  while (!screen.includes('# ')) await new Promise<void>((resolve) => (waiting = resolve));
  const samples: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const before = screen.length;
    const started = performance.now();
    ws.send(Buffer.from('x'));
    while (screen.length === before) await new Promise<void>((resolve) => (waiting = resolve));
    samples.push(performance.now() - started);
  }
  ws.close();
  return samples;
}

printMachine(`Remote access: one tunnel stream of ${args.megabytes} MB, and ${KEYS} console keystrokes`);
const database = pgliteDatabase();
const app = await startServer(database, { broker: true, listen: true });
const service = await source();
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
  const keys = await keystrokes(base, cookie, device.id, agent.password);

  const rate = (r: { bytes: number; seconds: number }) => r.bytes / 1024 / 1024 / r.seconds;
  const ratio = rate(tunnelled) / rate(bare);
  printTable(
    ['path', 'MB', 'seconds', 'MB/s'],
    [
      [
        'port forward through the device tunnel',
        (tunnelled.bytes / 1024 / 1024).toFixed(0),
        tunnelled.seconds.toFixed(2),
        rate(tunnelled).toFixed(1),
      ],
      [
        'bare ws pipe, same bytes',
        (bare.bytes / 1024 / 1024).toFixed(0),
        bare.seconds.toFixed(2),
        rate(bare).toFixed(1),
      ],
    ],
  );
  console.log();
  printTable(
    ['console keystroke round trip', 'p50 ms', 'p99 ms', 'max ms'],
    [['SSH through the tunnel', ms(percentile(keys, 50)), ms(percentile(keys, 99)), ms(Math.max(...keys))]],
  );
  console.log();
  console.log(
    `stream: ${ratio.toFixed(2)}× of bare ws (target ≥ 0.5×: ${verdict(ratio >= 0.5)}), ${rate(tunnelled).toFixed(1)} MB/s (target ≥ 50: ${verdict(rate(tunnelled) >= 50)})`,
  );
  console.log(
    `keystrokes: p99 ${ms(percentile(keys, 99))} ms (target ≤ 20 ms: ${verdict(percentile(keys, 99) <= 20)})`,
  );
  if (tunnelled.bytes !== BYTES) throw new Error(`the tunnel carried ${tunnelled.bytes} of ${BYTES} bytes`);
} finally {
  await agent?.services?.close();
  await agent?.stop();
  service.close();
  await app.close();
  await database.dispose();
}
