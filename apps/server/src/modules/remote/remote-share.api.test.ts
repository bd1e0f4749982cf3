import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import {
  CONNECT_DESKTOP_PATH,
  CONNECT_TERMINAL_PATH,
  type TerminalNotice,
} from '@fleetgate/shared/devices/tunnel';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { openSocket } from '#test/sockets';
import { remoteShareLinks } from '../../db/schema/remote';

/**
 * Share links (product §2: the ssh and desktop launchers with a key skip sign-in): made by an
 * admin for one entry, opened by anyone holding the key with no session at all, recorded as
 * the creator's; and every way a key stops opening anything.
 */

let app: FastifyInstance;
let base: string;
let acme: TestClient;
let beta: TestClient;
let agent: DeviceAgent;
let deviceId: number;
let sshEntry: number;

/** Opens a console socket with a key only (no cookie): the socket, or the status of the refusal. */
const withKey = (path: string, key: string, origin = base) =>
  openSocket(`${base}${path}?key=${encodeURIComponent(key)}`, { origin });

const keyOf = (url: string) => new URL(url).searchParams.get('key')!;

async function share(client: TestClient, entry: number, minutes = 30) {
  const made = await client.post(
    '/api/remote/share-links',
    { entry_id: entry, minutes },
    { host: `127.0.0.1:${httpPort(app)}` },
  );
  expect(made.statusCode, made.body).toBe(200);
  return made.json().data as { id: string; url: string; expires_at: string; created_by_email: string };
}

/** A terminal opened with a key, signed in to the device, at its prompt. */
async function sharedTerminal(key: string) {
  const opened = await withKey(CONNECT_TERMINAL_PATH, key);
  if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
  const seen = { notices: [] as TerminalNotice[], screen: '' };
  opened.ws.on('message', (data, binary) => {
    if (binary) seen.screen += data.toString();
    else seen.notices.push(JSON.parse(data.toString()) as TerminalNotice);
  });
  opened.ws.send(
    JSON.stringify({ type: 'auth', username: 'admin', password: agent.password, cols: 80, rows: 24 }),
  );
  await waitFor(() => seen.screen.includes('# '), { what: 'prompt' });
  return { ws: opened.ws, seen };
}

beforeAll(async () => {
  app = await buildGatewayApp({ listen: true });
  base = `http://127.0.0.1:${httpPort(app)}`;
  const tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acme, beta] = await Promise.all([signedIn(app, 'admin@acme.test'), signedIn(app, 'admin@beta.test')]);
  const identity = testIdentity('RUT241');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true });
  sshEntry = (
    await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Router shell',
      protocol: 'ssh',
    })
  ).json().data.id;
});
afterAll(async () => {
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
});

describe('share links', () => {
  it("open an entry's console without sign-in, recorded as the creator's session with the link", async () => {
    const link = await share(acme, sshEntry);
    expect(link.url).toMatch(new RegExp(`^${base}/rms-connect/ssh\\?key=[A-Za-z0-9_-]{43}$`));
    expect(link).toMatchObject({ created_by_email: 'admin@acme.test', entry_name: 'Router shell' });
    // The launcher learns what it opens from the key alone.
    const described = await app.inject({
      method: 'GET',
      url: `/api/remote/share/${keyOf(link.url)}`,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(described.json().data).toMatchObject({
      device_name: expect.any(String),
      entry_name: 'Router shell',
      protocol: 'ssh',
    });

    const { ws, seen } = await sharedTerminal(keyOf(link.url));
    ws.send(Buffer.from('uname -a\r'), { binary: true });
    await waitFor(() => seen.screen.includes('GNU/Linux'), { what: 'uname' });
    ws.send(Buffer.from('exit\r'), { binary: true });
    const [session] = await waitFor(async () => {
      const rows = (await acme.get(`/api/remote/sessions?entry_id=${sshEntry}`)).json().data as {
        ended_at: string | null;
        share_link_id: string | null;
        user_email: string;
      }[];
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(session).toMatchObject({ share_link_id: link.id, user_email: 'admin@acme.test' });
    const listed = (await acme.get(`/api/remote/share-links?entry_id=${sshEntry}`)).json().data;
    expect(listed[0]).toMatchObject({ id: link.id, uses: 1 });
    expect(JSON.stringify(listed)).not.toContain(keyOf(link.url));
    // Another tenant neither lists nor revokes it.
    expect((await beta.get(`/api/remote/share-links?entry_id=${sshEntry}`)).statusCode).toBe(404);
    expect((await beta.delete(`/api/remote/share-links/${link.id}`)).statusCode).toBe(404);
  });

  it('revoked: the live session ends and the key opens nothing more', async () => {
    const link = await share(acme, sshEntry);
    const { ws, seen } = await sharedTerminal(keyOf(link.url));
    const revoked = await acme.delete(`/api/remote/share-links/${link.id}`);
    expect(revoked.json().message).toBe('Share link revoked successfully');
    await waitFor(() => seen.notices.find((n) => n.type === 'closed'), { what: 'closed' });
    expect(seen.notices.at(-1)).toEqual({ type: 'closed', reason: 'The share link was revoked' });
    ws.close();
    expect(await withKey(CONNECT_TERMINAL_PATH, keyOf(link.url))).toEqual({ status: 401 });
    const described = await app.inject({
      method: 'GET',
      url: `/api/remote/share/${keyOf(link.url)}`,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(described.statusCode).toBe(404);
    expect(errorsOf(described)[0]?.message).toBe('This share link is not valid, or it has expired');
    expect(errorsOf(await acme.delete(`/api/remote/share-links/${link.id}`))[0]?.message).toBe(
      'The share link is already revoked',
    );
  });

  it('expired, unknown, for another screen, or its creator signed out: refused', async () => {
    const link = await share(acme, sshEntry);
    await app.db
      .update(remoteShareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(remoteShareLinks.id, link.id));
    expect(await withKey(CONNECT_TERMINAL_PATH, keyOf(link.url))).toEqual({ status: 401 });
    expect(await withKey(CONNECT_TERMINAL_PATH, 'A'.repeat(43))).toEqual({ status: 401 });
    expect(await withKey(CONNECT_TERMINAL_PATH, '../../etc')).toEqual({ status: 401 });

    const fresh = await share(acme, sshEntry);
    // An SSH link opens the console, not the desktop.
    expect(await withKey(CONNECT_DESKTOP_PATH, keyOf(fresh.url))).toEqual({ status: 400 });
    // A foreign page cannot use a key with the visitor's browser either: the Origin is checked first.
    const foreign = await withKey(CONNECT_TERMINAL_PATH, keyOf(fresh.url), 'https://evil.example');
    expect(foreign).toEqual({ status: 403 });

    // The link acts for its creator's sign-in: signing out ends it.
    const creator = await signedIn(app, 'admin@acme.test');
    const own = await share(creator, sshEntry);
    const mine = (await creator.get('/api/user/sessions')).json().data as { id: string; current: boolean }[];
    expect((await creator.delete(`/api/user/sessions/${mine.find((x) => x.current)!.id}`)).statusCode).toBe(
      200,
    );
    expect(await withKey(CONNECT_TERMINAL_PATH, keyOf(own.url))).toEqual({ status: 401 });
  });

  it('refuses to share what no key may open, and bad durations, in words', async () => {
    const telnet = (
      await acme.post('/api/devices/remote-access', {
        device_id: deviceId,
        name: 'Telnet',
        protocol: 'telnet',
      })
    ).json().data.id;
    const refused = await acme.post('/api/remote/share-links', { entry_id: telnet, minutes: 5 });
    expect(errorsOf(refused)[0]).toMatchObject({
      message: 'Share links open SSH and VNC entries only',
      source: 'entry_id',
    });
    const long = await acme.post('/api/remote/share-links', { entry_id: sshEntry, minutes: 1441 });
    expect(errorsOf(long)[0]?.message).toBe('A share link lasts 1 to 1440 minutes');
    expect((await beta.post('/api/remote/share-links', { entry_id: sshEntry, minutes: 5 })).statusCode).toBe(
      404,
    );
  });
});
