import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import {
  CONNECT_TERMINAL_PATH,
  type TerminalNotice,
  TUNNEL_HEADERS,
  TUNNEL_PATH,
} from '@fleetgate/shared/devices/tunnel';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { errorsOf, type TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { companyBalance } from '#test/resources';
import { openSocket } from '#test/sockets';
import { spendData } from '../resources/data-usage.service';
import { NOT_ENOUGH_DATA } from './remote.service';

/**
 * Remote access through a device tunnel, end to end with a real simulated device: the console's
 * terminal WebSocket, the server's SSH client, the device's `open_stream` command and tunnel
 * WebSocket, and the simulator's SSH server and shell; then the hostile cases.
 */

let app: FastifyInstance;
let base: string;
let acme: TestClient;
let beta: TestClient;
let guest: TestClient;
let agent: DeviceAgent;
let deviceId: number;

/** Opens the terminal socket; answers the socket or the HTTP status of the refusal. */
const terminal = (client: TestClient | undefined, query: string, headers: Record<string, string> = {}) =>
  openSocket(`${base}${CONNECT_TERMINAL_PATH}?${query}`, { client, origin: base, headers });

/** Everything a terminal socket receives: its notices and its screen. */
function record(ws: WebSocket) {
  const seen = { notices: [] as TerminalNotice[], screen: '' };
  ws.on('message', (data, binary) => {
    if (binary) seen.screen += data.toString();
    else seen.notices.push(JSON.parse(data.toString()) as TerminalNotice);
  });
  return seen;
}

const rowsOf = (result: unknown) =>
  ('rows' in (result as object) ? (result as { rows: unknown[] }).rows : (result as unknown[])) as unknown[];

/** A terminal signed in to the device and showing its prompt. */
async function connected(client: TestClient, query = `device_id=${deviceId}`) {
  const opened = await terminal(client, query);
  if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
  const seen = record(opened.ws);
  opened.ws.send(
    JSON.stringify({ type: 'auth', username: 'admin', password: agent.password, cols: 80, rows: 24 }),
  );
  await waitFor(() => seen.notices.find((n) => n.type === 'connected' || n.type === 'error'), {
    what: 'connected',
  });
  const first = seen.notices[0]!;
  if (first.type !== 'connected') throw new Error(`not connected: ${JSON.stringify(first)}`);
  await waitFor(() => seen.screen.includes('# '), { what: 'prompt' });
  return { ws: opened.ws, seen, sessionId: first.session_id };
}

const closedWith = (seen: { notices: TerminalNotice[] }) =>
  waitFor(() => seen.notices.find((n) => n.type === 'closed'), { what: 'closed' }) as Promise<{
    type: 'closed';
    reason: string;
  }>;

type SessionRow = {
  id: string;
  recorded: boolean;
  protocol: string;
  user_email: string;
  login: string;
  host_key: string | null;
  ended_at: string | null;
  end_reason: string | null;
  bytes_to_device: number;
  bytes_from_device: number;
};
const sessionsOf = async (client: TestClient, query = '') =>
  (await client.get(`/api/remote/sessions?device_id=${deviceId}${query}`)).json().data as SessionRow[];

let tree: Awaited<ReturnType<typeof tenantTree>>;
let recordings: string;

beforeAll(async () => {
  // Recordings are files: this run's go to a directory of its own.
  recordings = mkdtempSync(path.join(tmpdir(), 'fleetgate-recordings-'));
  app = await buildGatewayApp({ listen: true, env: { DATA_DIR: recordings } });
  base = `http://127.0.0.1:${httpPort(app)}`;
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  await createUser(app, 'guest@acme.test', 'read_only', tree.acme.id);
  [acme, beta, guest] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'admin@beta.test'),
    signedIn(app, 'guest@acme.test'),
  ]);
  const identity = testIdentity('RUT241');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true });
});
afterAll(async () => {
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
  rmSync(recordings, { recursive: true, force: true });
});

describe('the SSH terminal through a device tunnel', () => {
  it('signs in to the device, runs `uname -a`, resizes and ends on exit, with bytes metered', async () => {
    const opened = await terminal(acme, `device_id=${deviceId}`);
    if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
    const { ws } = opened;
    const seen = record(ws);
    ws.send(
      JSON.stringify({ type: 'auth', username: 'admin', password: agent.password, cols: 100, rows: 30 }),
    );
    await waitFor(() => seen.notices.find((n) => n.type === 'connected'), { what: 'connected' });
    const connected = seen.notices.find((n) => n.type === 'connected') as { host_key: string };
    expect(connected.host_key).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    await waitFor(() => seen.screen.includes('# '), { what: 'prompt' });
    ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    ws.send(Buffer.from('uname -a\r'), { binary: true });
    await waitFor(() => seen.screen.includes('GNU/Linux'), { what: 'uname output' });
    expect(seen.screen).toContain(`(${agent.identity.model})`);
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.send(Buffer.from('exit\r'), { binary: true });
    await closed;
    expect(seen.notices.at(-1)).toEqual({ type: 'closed', reason: 'The session ended' });
    // The stream was asked for with a durable command, recorded in the device's history.
    const history = await acme.get(`/api/devices/${deviceId}/commands`);
    expect(history.json().data[0]).toMatchObject({ action: 'open_stream', status: 'done' });

    // The access history: who, what, the host key, how it ended, the bytes each way; and the
    // bytes were spent from the company's data as remote access.
    const [session] = await waitFor(async () => {
      const rows = await sessionsOf(acme);
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(session).toMatchObject({
      protocol: 'ssh',
      user_email: 'admin@acme.test',
      login: 'admin',
      host_key: connected.host_key,
      end_reason: 'The session ended',
    });
    expect(session!.bytes_to_device).toBeGreaterThan(100);
    expect(session!.bytes_from_device).toBeGreaterThan(100);
    // The terminal was recorded (asciicast v2): what the user saw, to replay; another tenant gets nothing.
    expect(session).toMatchObject({ recorded: true });
    const cast = await acme.get(`/api/remote/sessions/${session!.id}/recording`);
    expect(cast.statusCode).toBe(200);
    expect(cast.headers['content-type']).toContain('application/x-asciicast');
    const [header, ...events] = cast.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(header).toMatchObject({ version: 2, width: 100, height: 30 });
    const shown = events
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join('');
    expect(shown).toContain('GNU/Linux');
    expect(events).toContainEqual([expect.any(Number), 'r', '120x40']);
    expect((await beta.get(`/api/remote/sessions/${session!.id}/recording`)).statusCode).toBe(404);
    const usage = (await acme.get(`/api/credits/data-history?device_id=${deviceId}`)).json().data;
    expect(usage[0]).toMatchObject({
      purpose: 'remote_access',
      bytes: session!.bytes_to_device + session!.bytes_from_device,
    });
  });

  it('a wrong password is refused in words, and the device stays usable', async () => {
    const opened = await terminal(acme, `device_id=${deviceId}`);
    if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
    const seen = record(opened.ws);
    opened.ws.send(
      JSON.stringify({ type: 'auth', username: 'admin', password: 'wrong', cols: 80, rows: 24 }),
    );
    await waitFor(() => seen.notices.find((n) => n.type === 'error'), { what: 'refusal' });
    expect(seen.notices[0]).toEqual({
      type: 'error',
      message: 'The device refused the user name or password',
    });
  });

  it('a port the device does not serve fails with the device’s own reason', async () => {
    const opened = await terminal(acme, `device_id=${deviceId}&port=2222`);
    if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
    const seen = record(opened.ws);
    opened.ws.send(JSON.stringify({ type: 'auth', username: 'admin', password: 'x', cols: 80, rows: 24 }));
    await waitFor(() => seen.notices.find((n) => n.type === 'error'), { what: 'refusal' });
    expect(seen.notices[0]).toEqual({ type: 'error', message: 'No service at 127.0.0.1:2222' });
  });

  it('refuses no session, a foreign Origin, a role without remote access and another tenant’s device', async () => {
    expect(await terminal(undefined, `device_id=${deviceId}`)).toEqual({ status: 401 });
    expect(await terminal(acme, `device_id=${deviceId}`, { origin: 'https://evil.example' })).toEqual({
      status: 403,
    });
    expect(await terminal(guest, `device_id=${deviceId}`)).toEqual({ status: 403 });
    expect(await terminal(beta, `device_id=${deviceId}`)).toEqual({ status: 404 });
    expect(await terminal(acme, 'device_id=abc')).toEqual({ status: 404 });
  });
});

describe('live sessions and their end', () => {
  it('an admin ends a live session from the history; the terminal is told', async () => {
    const { seen, sessionId } = await connected(acme);
    const live = await sessionsOf(acme, '&active=true');
    expect(live.map((r) => r.id)).toContain(sessionId);
    const ended = await acme.delete(`/api/remote/sessions/${sessionId}`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await closedWith(seen)).toEqual({ type: 'closed', reason: 'Ended by an administrator' });
    await waitFor(async () => (await sessionsOf(acme, '&active=false')).some((r) => r.id === sessionId));
    const again = await acme.delete(`/api/remote/sessions/${sessionId}`);
    expect(errorsOf(again)).toEqual([expect.objectContaining({ message: 'The session has already ended' })]);
    expect((await beta.delete(`/api/remote/sessions/${sessionId}`)).statusCode).toBe(404);
  });

  it('signing the opener out ends their session within a second', async () => {
    await createUser(app, 'ops@acme.test', 'admin', tree.acme.id);
    const ops = await signedIn(app, 'ops@acme.test');
    const { seen } = await connected(ops);
    const mine = (await ops.get('/api/user/sessions')).json().data as { id: string; current: boolean }[];
    const current = mine.find((s) => s.current)!;
    expect((await ops.delete(`/api/user/sessions/${current.id}`)).statusCode).toBe(200);
    expect(await closedWith(seen)).toEqual({
      type: 'closed',
      reason: 'Your access to the device was revoked',
    });
  });

  it('a changed host key stops the session before any password is sent', async () => {
    const [pinned] = await app.db
      .execute(sql`select fingerprint from remote_host_keys where device_id = ${deviceId}`)
      .then(rowsOf);
    expect(pinned).toBeDefined();
    await app.db.execute(
      sql`update remote_host_keys set fingerprint = 'SHA256:somethingelse' where device_id = ${deviceId}`,
    );
    try {
      const opened = await terminal(acme, `device_id=${deviceId}`);
      if (!('ws' in opened)) throw new Error('refused');
      const seen = record(opened.ws);
      opened.ws.send(
        JSON.stringify({ type: 'auth', username: 'admin', password: agent.password, cols: 80, rows: 24 }),
      );
      const error = await waitFor(() => seen.notices.find((n) => n.type === 'error'), { what: 'refusal' });
      expect((error as { message: string }).message).toMatch(
        /^The device's host key has changed \(now SHA256:/,
      );
    } finally {
      await app.db.execute(sql`delete from remote_host_keys where device_id = ${deviceId}`);
    }
  });

  it('a company with no data left cannot open a session, in clear words', async () => {
    const northDevice = await registerDirect(app, testIdentity(), tree.north.id);
    const left = await companyBalance(app, tree.north.id, null);
    await spendData(
      { db: app.db, notifications: app.notifications },
      {
        companyId: tree.north.id,
        purpose: 'remote_access',
        bytes: left,
      },
    );
    const opened = await terminal(acme, `device_id=${northDevice.id}`);
    if (!('ws' in opened)) throw new Error('refused');
    const seen = record(opened.ws);
    opened.ws.send(JSON.stringify({ type: 'auth', username: 'admin', password: 'x', cols: 80, rows: 24 }));
    await waitFor(() => seen.notices.find((n) => n.type === 'error'), { what: 'refusal' });
    expect(seen.notices[0]).toEqual({ type: 'error', message: NOT_ENOUGH_DATA });
  });
});

describe('the telnet terminal (product §2 /rms-connect/telnet)', () => {
  it("answers the device's login prompts, runs a command, follows the window size and is recorded", async () => {
    const made = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Router telnet',
      protocol: 'telnet',
    });
    expect(made.json().data).toMatchObject({ protocol: 'telnet', port: 23 });
    const entry = made.json().data.id as number;
    const opened = await terminal(acme, `entry_id=${entry}`);
    if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
    const seen = record(opened.ws);
    opened.ws.send(
      JSON.stringify({ type: 'auth', username: 'admin', password: agent.password, cols: 90, rows: 25 }),
    );
    await waitFor(() => seen.screen.includes('# '), { what: 'telnet prompt' });
    expect(seen.notices[0]).toMatchObject({ type: 'connected', host_key: '' });
    // The password answered the device's prompt and was never echoed to the screen.
    expect(seen.screen).not.toContain(agent.password);
    opened.ws.send(JSON.stringify({ type: 'resize', cols: 132, rows: 43 }));
    opened.ws.send(Buffer.from('stty size\r'), { binary: true });
    await waitFor(() => seen.screen.includes('43 132'), { what: 'new window size' });
    opened.ws.send(Buffer.from('exit\r'), { binary: true });
    await closedWith(seen);
    const [session] = await waitFor(async () => {
      const rows = await sessionsOf(acme);
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(session).toMatchObject({ protocol: 'telnet', login: 'admin', host_key: null, recorded: true });
    const recording = await acme.get(`/api/remote/sessions/${session!.id}/recording`);
    expect(recording.body).toContain('43 132');

    // The device's own telnet, asked for by protocol; an unknown protocol is refused.
    const own = await terminal(acme, `device_id=${deviceId}&protocol=telnet`);
    expect('ws' in own).toBe(true);
    if ('ws' in own) own.ws.close();
    expect(await terminal(acme, `device_id=${deviceId}&protocol=vnc`)).toEqual({ status: 400 });
    await acme.delete(`/api/devices/remote-access/${entry}`);
  });
});

describe('remote entries (product §2 remote.access, add remote)', () => {
  it('an admin adds an entry with the protocol’s port, opens a terminal through it, and the history names it', async () => {
    const made = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Router shell',
      protocol: 'ssh',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data).toMatchObject({
      name: 'Router shell',
      protocol: 'ssh',
      host: '127.0.0.1',
      port: 22,
      enabled: true,
    });
    const id = made.json().data.id as number;
    const listed = (await acme.get(`/api/devices/remote-access?protocol=ssh&device_id=${deviceId}`)).json();
    expect(listed.meta.total).toBe(1);
    expect((await beta.get('/api/devices/remote-access')).json().meta.total).toBe(0);

    const { ws, seen } = await connected(acme, `entry_id=${id}`);
    ws.send(Buffer.from('exit\r'), { binary: true });
    await closedWith(seen);
    const [session] = await waitFor(async () => {
      const rows = (await acme.get(`/api/remote/sessions?device_id=${deviceId}`)).json().data as {
        entry_name: string | null;
        ended_at: string | null;
      }[];
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(session).toMatchObject({ entry_name: 'Router shell' });
    // remote.info reads the sessions of one entry.
    const ofEntry = (await acme.get(`/api/remote/sessions?entry_id=${id}`)).json();
    expect(ofEntry.meta.total).toBe(1);
    expect(ofEntry.data[0]).toMatchObject({ entry_id: id });

    // Disabled, the entry opens nothing; another tenant never sees it.
    expect((await acme.put(`/api/devices/remote-access/${id}`, { enabled: false })).json().data.enabled).toBe(
      false,
    );
    expect(await terminal(acme, `entry_id=${id}`)).toEqual({ status: 409 });
    expect(await terminal(beta, `entry_id=${id}`)).toEqual({ status: 404 });
    expect((await beta.delete(`/api/devices/remote-access/${id}`)).statusCode).toBe(404);
    expect(
      (await guest.post('/api/devices/remote-access', { device_id: deviceId, name: 'x', protocol: 'ssh' }))
        .statusCode,
    ).toBe(403);
    expect((await acme.delete(`/api/devices/remote-access/${id}`)).statusCode).toBe(200);
    expect((await acme.get(`/api/devices/remote-access/${id}`)).statusCode).toBe(404);
  });

  it('refuses hosts outside the LAN, a TCP entry without a port, bad ports, unknown fields and other tenants’ devices', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const response = await acme.post('/api/devices/remote-access', {
        device_id: deviceId,
        name: 'X',
        protocol: 'http',
        ...body,
      });
      expect(response.statusCode, response.body).toBe(400);
      return errorsOf(response).map((e) => `${e.source}: ${e.message}`);
    };
    const lanRule = 'host: Host must be 127.0.0.1 (the device) or a private LAN address such as 192.168.1.10';
    for (const host of [
      '8.8.8.8',
      '169.254.169.254',
      'example.com',
      '127.0.0.2',
      '192.168.1.300',
      '10.0.0.01',
    ])
      expect(await bad({ host })).toEqual([lanRule]);
    expect(await bad({ protocol: 'tcp' })).toEqual(['port: Port is required for plain TCP']);
    expect(await bad({ port: 0 })).toEqual(['port: Port must be between 1 and 65535']);
    expect(await bad({ port: 70_000 })).toEqual(['port: Port must be between 1 and 65535']);
    expect(await bad({ protocol: 'smb' })).toEqual([
      'protocol: Protocol must be one of: ssh, sftp, telnet, http, https, vnc, rdp, tcp',
    ]);
    expect((await bad({ owner: 'me' }))[0]).toMatch(/^owner: /);
    const lan = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Camera',
      protocol: 'http',
      host: '192.168.1.64',
    });
    expect(lan.json().data).toMatchObject({ host: '192.168.1.64', port: 80 });
    const foreign = await beta.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'X',
      protocol: 'ssh',
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('a hostile service behind the device', () => {
  it('a 1 MB banner instead of SSH fails its own session in words; a session beside it works', async () => {
    // A LAN host that answers with a megabyte of junk where SSH's identification belongs.
    const hostile = createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.end(Buffer.alloc(1024 * 1024, 0x41));
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', () => resolve()));
    agent.services!.serve('192.168.1.66', 22, {
      host: '127.0.0.1',
      port: (hostile.address() as AddressInfo).port,
    });
    try {
      const entry = await acme.post('/api/devices/remote-access', {
        device_id: deviceId,
        name: 'Hostile',
        protocol: 'ssh',
        host: '192.168.1.66',
      });
      const good = await connected(acme);
      const opened = await terminal(acme, `entry_id=${entry.json().data.id}`);
      if (!('ws' in opened)) throw new Error('refused');
      const seen = record(opened.ws);
      opened.ws.send(JSON.stringify({ type: 'auth', username: 'admin', password: 'x', cols: 80, rows: 24 }));
      const error = (await waitFor(() => seen.notices.find((n) => n.type === 'error'), {
        what: 'refusal',
      })) as {
        message: string;
      };
      expect(error.message).toMatch(/^SSH failed: /);
      // The session beside it still answers.
      good.ws.send(Buffer.from('echo still here\r'), { binary: true });
      await waitFor(() => good.seen.screen.includes('still here\r\n'), { what: 'echo' });
      good.ws.close();
    } finally {
      hostile.close();
    }
  });
});

describe('the tunnel endpoint (docs/device-protocol.md §7)', () => {
  /** Connects a device-side stream socket: 'open' or the refusal's status. */
  function deviceSide(stream: string, headers: Record<string, string>) {
    return new Promise<number | 'open'>((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}${TUNNEL_PATH}?stream=${stream}`, { headers });
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      ws.once('error', () => resolve(0));
    });
  }

  it('a stream token works once, for its own device with its secret, and for no unknown stream', async () => {
    const expected = app.tunnels.expect(
      { id: deviceId, serial: agent.serial },
      { host: '127.0.0.1', port: 22 },
      base,
    );
    const { stream, token } = expected.params;
    const good = {
      [TUNNEL_HEADERS.serial]: agent.serial,
      [TUNNEL_HEADERS.secret]: agent.secret!,
      [TUNNEL_HEADERS.token]: token,
    };
    // Another device's serial with this token: refused, and the token is not spent by it.
    expect(await deviceSide(stream, { ...good, [TUNNEL_HEADERS.serial]: 'SIM0000000' })).toBe(401);
    // A stream nobody asked for.
    expect(await deviceSide('6f1c1d2e-0000-4000-8000-000000000000', good)).toBe(401);
    expect(await deviceSide(stream, good)).toBe('open');
    await expected.opened.then((s) => s.socket.destroy());
    // Used once: never again.
    expect(await deviceSide(stream, good)).toBe(401);

    // The right token with a wrong secret is refused, and the wait learns why.
    const second = app.tunnels.expect(
      { id: deviceId, serial: agent.serial },
      { host: '127.0.0.1', port: 22 },
      base,
    );
    const failed = second.opened.catch((error: Error) => error.message);
    expect(
      await deviceSide(second.params.stream, {
        ...good,
        [TUNNEL_HEADERS.token]: second.params.token,
        [TUNNEL_HEADERS.secret]: 'not-the-secret',
      }),
    ).toBe(401);
    expect(await failed).toBe('The device could not prove who it is');
    expect(app.tunnels.waiting()).toBe(0);
  });
});
