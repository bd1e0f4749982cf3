import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
} from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { gzipSync } from 'node:zlib';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { startWebUi, type WebUi } from '@fleetgate/device-sim/webui';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '#src/config';
import { errorsOf, type TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { companyBalance } from '#test/resources';
import { spendData } from '../resources/data-usage.service';
import { NOT_ENOUGH_DATA } from './remote.service';
import { ACCESS_REVOKED } from './remote-watch';
import { LINK_SPENT, NEEDS_LINK, OTHER_USER } from './web-proxy';

/**
 * The device web page proxy end to end: the console asks for a link, a browser opens it on the
 * proxy's own port, and the simulated device's LuCI-like web UI answers through a tunnel
 * stream. Then the hostile cases: no link, another user's, after sign-out and expiry; requests
 * that try to reach another host than the device's; cookies between console and device.
 */

let app: FastifyInstance;
let base: string;
let proxyPort: number;
let proxyOrigin: string;
let tree: Awaited<ReturnType<typeof tenantTree>>;
let acme: TestClient;
let beta: TestClient;
let guest: TestClient;
let agent: DeviceAgent;
let webUi: WebUi;
let deviceId: number;
/** A listener no request may ever reach: it plays the database, the metadata service, anything. */
let canary: { port: number; hits: number; close(): void };

type Reply = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * A browser on the proxy's origin. Cookies ignore ports, so on a port-separated proxy the
 * browser sends the console's cookies too: `from` puts them in its jar as a browser would.
 */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(from?: TestClient) {
    for (const [name, value] of from?.cookies ?? []) if (name !== 'fg_refresh') this.cookies.set(name, value);
  }

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  request(
    method: string,
    target: string,
    options: { headers?: Record<string, string>; form?: Record<string, string> } = {},
  ) {
    const url = new URL(target, proxyOrigin);
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
    return new Promise<Reply>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port: proxyPort,
          method,
          path: `${url.pathname}${url.search}`,
          headers: {
            ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin: proxyOrigin } : {}),
            ...options.headers,
          },
        },
        (response) => {
          for (const cookie of response.headers['set-cookie'] ?? []) {
            const [pair = ''] = cookie.split(';');
            const at = pair.indexOf('=');
            const name = pair.slice(0, at);
            if (/max-age=0/i.test(cookie) || at === pair.length - 1) this.cookies.delete(name);
            else this.cookies.set(name, pair.slice(at + 1));
          }
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  get = (target: string, headers?: Record<string, string>) =>
    this.request('GET', target, headers ? { headers } : {});
  post = (target: string, form: Record<string, string>) => this.request('POST', target, { form });
}

/** Asks the console for a link, as the browser at the server's real address does. */
async function linkFor(client: TestClient, body: Record<string, unknown>) {
  return client.post('/api/remote/web', body, { host: `127.0.0.1:${httpPort(app)}` });
}

/** A browser with a proxy session open on the device's own web UI. */
async function opened(client: TestClient, body: Record<string, unknown> = { device_id: deviceId }) {
  const link = await linkFor(client, body);
  expect(link.statusCode, link.body).toBe(200);
  const browser = new Browser(client);
  const open = await browser.get(link.json().data.url);
  expect(open.status, open.body).toBe(302);
  return browser;
}

/** Sends raw bytes to the proxy and answers what came back (requests no HTTP client would write). */
function raw(text: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

type SessionRow = {
  id: string;
  protocol: string;
  port: number;
  ended_at: string | null;
  end_reason: string | null;
  bytes_to_device: number;
  bytes_from_device: number;
};
const sessionsOf = async (client: TestClient, query = '') =>
  (await client.get(`/api/remote/sessions?device_id=${deviceId}${query}`)).json().data as SessionRow[];

beforeAll(async () => {
  app = await buildGatewayApp({ listen: true, env: { PROXY_HOST: '127.0.0.1' } });
  base = `http://127.0.0.1:${httpPort(app)}`;
  proxyPort = app.webProxy.port()!;
  proxyOrigin = `http://127.0.0.1:${proxyPort}`;
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  await createUser(app, 'guest@acme.test', 'read_only', tree.acme.id);
  [acme, beta, guest] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'admin@beta.test'),
    signedIn(app, 'guest@acme.test'),
  ]);
  const identity = testIdentity('RUTX11');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true });
  webUi = await startWebUi(agent);
  agent.services!.serve('127.0.0.1', 80, webUi.address);
  const listener = createTcpServer((socket) => {
    canary.hits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  canary = { port: (listener.address() as AddressInfo).port, hits: 0, close: () => listener.close() };
});
afterAll(async () => {
  canary?.close();
  await webUi?.close();
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the device web UI through the proxy (product §2 web UI)', () => {
  it('signs in to the device, shows its status, saves a form, rewrites its links, and is one metered session', async () => {
    const link = await linkFor(acme, { device_id: deviceId });
    expect(link.statusCode, link.body).toBe(200);
    const { url, expires_at } = link.json().data as { url: string; expires_at: string };
    // Another origin than the console's: its own port, never a path under the console.
    expect(url).toMatch(new RegExp(`^${proxyOrigin}/__fleetgate/open\\?ticket=[A-Za-z0-9_-]{43}$`));
    expect(new URL(url).origin).not.toBe(base);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(50_000);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(60_000);

    const browser = new Browser(acme);
    const consoleSession = acme.cookies.get('fg_session')!;
    const open = await browser.get(url);
    expect(open.status).toBe(302);
    expect(open.headers.location).toBe('/');
    expect(open.headers['set-cookie']?.[0]).toMatch(
      /^fg_web=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/,
    );

    // The device's own redirects, relative, pass as they are.
    const root = await browser.get('/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/cgi-bin/luci');
    const login = await browser.get('/cgi-bin/luci');
    expect(login.status).toBe(200);
    expect(login.body).toContain('name="luci_password"');
    expect(login.headers['x-frame-options']).toBe('SAMEORIGIN');

    const refused = await browser.post('/cgi-bin/luci', { luci_username: 'admin', luci_password: 'wrong' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Login failed');

    const signedInToDevice = await browser.post('/cgi-bin/luci', {
      luci_username: 'admin',
      luci_password: agent.password,
    });
    expect(signedInToDevice.status).toBe(303);
    expect(signedInToDevice.headers.location).toBe('/cgi-bin/luci/status');
    // The device's cookie comes back under a name of its own, without Domain, its Path kept.
    const deviceCookie = signedInToDevice.headers['set-cookie']?.[0] ?? '';
    expect(deviceCookie).toMatch(/^fgd_[0-9a-f]{8}_sysauth=[0-9a-f]{32}; Path=\/; HttpOnly$/);

    const status = await browser.get('/cgi-bin/luci/status');
    expect(status.status).toBe(200);
    expect(status.body).toContain(`<td>${agent.serial}</td>`);
    expect(status.body).toContain(`<td>${agent.identity.model}</td>`);
    expect(status.body).toContain(`<td>${agent.hostname}</td>`);
    // The device's absolute link, written with the Host it received, points at the proxy now.
    expect(status.body).toContain(`href="${proxyOrigin}/cgi-bin/luci/logout"`);
    expect(status.body).not.toContain('http://127.0.0.1/');
    expect(status.body).toContain('href="/cgi-bin/luci/status"');

    // What reached the device: its own Host and cookie; nothing of the console's or the proxy's.
    const seen = webUi.lastHeaders()!;
    expect(seen.host).toBe('127.0.0.1');
    expect(seen.cookie).toMatch(/^sysauth=[0-9a-f]{32}$/);
    expect(JSON.stringify(seen)).not.toContain(consoleSession);
    expect(JSON.stringify(seen)).not.toContain(acme.cookies.get('XSRF-TOKEN')!);
    expect(Object.keys(seen).filter((h) => h.startsWith('x-forwarded') || h === 'forwarded')).toEqual([]);

    const saved = await browser.post('/cgi-bin/luci/status', { description: 'Roof <b>mast</b>' });
    expect(saved.status).toBe(303);
    // The device answered with its own absolute URL: it comes back on the proxy's origin.
    expect(saved.headers.location).toBe(`${proxyOrigin}/cgi-bin/luci/status`);
    expect(webUi.lastHeaders()!.origin).toBe('http://127.0.0.1');
    const after = await browser.get(saved.headers.location!);
    expect(after.body).toContain('<td>Roof &lt;b&gt;mast&lt;/b&gt;</td>');

    // One session of the access history for the whole page, protocol http, ended by an admin.
    const [live] = await sessionsOf(acme, '&active=true');
    expect(live).toMatchObject({ protocol: 'http', port: 80 });
    expect((await acme.delete(`/api/remote/sessions/${live!.id}`)).statusCode).toBe(200);
    const gone = await browser.get('/cgi-bin/luci/status');
    expect(gone.status).toBe(401);
    expect(gone.body.trim()).toBe(NEEDS_LINK);
    const ended = await waitFor(async () => {
      const rows = await sessionsOf(acme);
      const row = rows.find((r) => r.id === live!.id);
      return row?.ended_at && row.bytes_from_device > 0 ? row : undefined;
    });
    expect(ended).toMatchObject({ protocol: 'http', end_reason: 'Ended by an administrator' });
    expect(ended.bytes_to_device).toBeGreaterThan(0);
    expect(ended.bytes_from_device).toBeGreaterThan(1000);
    // The link worked once.
    expect((await new Browser(acme).get(url)).body.trim()).toBe(LINK_SPENT);
  });

  it('a kept stream the device closed (its keep-alive ran out) is replaced by a new one', async () => {
    const browser = await opened(acme);
    expect((await browser.get('/cgi-bin/luci')).status).toBe(200);
    // The web UI (Node's server) closes an idle connection after 5 seconds.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect((await browser.get('/cgi-bin/luci')).status).toBe(200);
    await browser.get('/__fleetgate/close');
  });

  it('a device that does not serve the port is named in words', async () => {
    const browser = await opened(acme, { device_id: deviceId, protocol: 'https' });
    const page = await browser.get('/');
    expect(page.status).toBe(502);
    expect(page.body.trim()).toBe('The device could not be reached: No service at 127.0.0.1:443');
    // The user closes the page: its session ends in the history.
    const closed = await browser.get('/__fleetgate/close');
    expect(closed.status).toBe(200);
    expect(browser.cookies.has('fg_web')).toBe(false);
    const rows = await waitFor(async () => {
      const found = (await sessionsOf(acme)).filter((r) => r.protocol === 'https');
      return found.every((r) => r.ended_at) ? found : undefined;
    });
    expect(rows[0]).toMatchObject({ port: 443, end_reason: 'The user closed the device web page' });
  });
});

describe('who may open a device web page', () => {
  it('refuses the proxy without a link, with an unknown cookie, and the link without permission or scope', async () => {
    const stranger = new Browser();
    const nothing = await stranger.get('/cgi-bin/luci/status');
    expect(nothing.status).toBe(401);
    expect(nothing.body.trim()).toBe(NEEDS_LINK);
    expect(nothing.headers['content-type']).toBe('text/plain; charset=utf-8');
    stranger.cookies.set('fg_web', 'A'.repeat(43));
    expect((await stranger.get('/')).status).toBe(401);
    expect((await stranger.get('/__fleetgate/open?ticket=nonsense')).body.trim()).toBe(LINK_SPENT);

    expect((await linkFor(guest, { device_id: deviceId })).statusCode).toBe(403);
    expect((await linkFor(beta, { device_id: deviceId })).statusCode).toBe(404);
    expect(errorsOf(await linkFor(acme, {})).map((e) => e.message)).toEqual([
      'Choose a device or a remote entry',
    ]);
    const ssh = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Shell',
      protocol: 'ssh',
    });
    const notWeb = await linkFor(acme, { entry_id: ssh.json().data.id });
    expect(errorsOf(notWeb)).toEqual([
      expect.objectContaining({
        message: 'Only http and https remote entries open as web pages',
        source: 'entry_id',
      }),
    ]);
    expect(errorsOf(await linkFor(acme, { entry_id: ssh.json().data.id, port: 8080 }))[0]?.message).toBe(
      'A remote entry brings its own protocol and port',
    );
  });

  it("another user's link does not open in this browser, and is spent by the try", async () => {
    const link = (await linkFor(acme, { device_id: deviceId })).json().data.url as string;
    // Beta's browser: its console cookie says who uses it.
    const theirs = await new Browser(beta).get(link);
    expect(theirs.status).toBe(401);
    expect(theirs.body.trim()).toBe(OTHER_USER);
    expect(theirs.headers['set-cookie']).toBeUndefined();
    expect((await new Browser(acme).get(link)).body.trim()).toBe(LINK_SPENT);
  });

  it('signing out of the console ends the device page it opened', async () => {
    await createUser(app, 'ops@acme.test', 'admin', tree.acme.id);
    const ops = await signedIn(app, 'ops@acme.test');
    const browser = await opened(ops);
    expect((await browser.get('/cgi-bin/luci')).status).toBe(200);
    expect((await ops.post('/api/auth/token/revoke', {})).statusCode).toBe(200);
    const after = await browser.get('/cgi-bin/luci');
    expect(after.status).toBe(401);
    expect(after.body.trim()).toBe(NEEDS_LINK);
  });

  it('losing the right to the device ends its page within a second', async () => {
    const tech = await createUser(app, 'tech@acme.test', 'admin', tree.acme.id);
    const client = await signedIn(app, 'tech@acme.test');
    const browser = await opened(client);
    expect((await browser.get('/cgi-bin/luci')).status).toBe(200);
    const readOnly = DEFAULT_ROLES.find((r) => r.name === 'read_only')!.id;
    const changed = await acme.put(`/api/users/${tech.id}/role`, { role_id: readOnly });
    expect(changed.statusCode, changed.body).toBe(200);
    await waitFor(async () => (await browser.get('/cgi-bin/luci')).status === 401, { what: 'page ended' });
    const ended = await waitFor(async () =>
      (await sessionsOf(acme)).find((r) => r.end_reason === ACCESS_REVOKED),
    );
    expect(ended).toMatchObject({ protocol: 'http' });
  });

  it('a link expires after 60 seconds, and a page left unused for 15 minutes ends', async () => {
    const link = (await linkFor(acme, { device_id: deviceId })).json().data.url as string;
    const browser = await opened(acme);
    expect((await browser.get('/cgi-bin/luci')).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const late = await new Browser(acme).get(link);
    expect(late.status).toBe(401);
    expect(late.body.trim()).toBe(LINK_SPENT);
    vi.setSystemTime(Date.now() + 15 * 60_000);
    const idle = await browser.get('/cgi-bin/luci');
    expect(idle.status).toBe(401);
    expect(idle.body.trim()).toBe(NEEDS_LINK);
  });

  it('a company with no data left gets no link, in clear words', async () => {
    const northDevice = await registerDirect(app, testIdentity(), tree.north.id);
    const left = await companyBalance(app, tree.north.id, null);
    await spendData(
      { db: app.db, notifications: app.notifications },
      { companyId: tree.north.id, purpose: 'remote_access', bytes: left },
    );
    expect(errorsOf(await linkFor(acme, { device_id: northDevice.id })).map((e) => e.message)).toEqual([
      NOT_ENOUGH_DATA,
    ]);
  });
});

describe('nothing leaves but through the tunnel to the target (no SSRF)', () => {
  it('ignores the Host header, absolute-form targets, scheme-relative paths, Forwarded and CONNECT', async () => {
    const browser = await opened(acme);
    const cookie = browser.cookieHeader();

    const hostTrick = await browser.get('/cgi-bin/luci', {
      host: `127.0.0.1:${canary.port}`,
      'x-forwarded-host': `127.0.0.1:${canary.port}`,
      forwarded: `host=127.0.0.1:${canary.port}`,
    });
    expect(hostTrick.status).toBe(200);
    expect(webUi.lastRequest()).toMatchObject({ url: '/cgi-bin/luci', headers: { host: '127.0.0.1' } });
    expect(webUi.lastHeaders()!['x-forwarded-host']).toBeUndefined();
    expect(webUi.lastHeaders()!.forwarded).toBeUndefined();

    const metadata = await raw(
      `GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: 169.254.169.254\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    // The device's own 404: the request went to the device, for the path alone.
    expect(metadata).toMatch(/^HTTP\/1\.1 404 /);
    expect(webUi.lastRequest()).toMatchObject({ url: '/latest/meta-data/', headers: { host: '127.0.0.1' } });

    const postgres = await raw(
      `GET http://127.0.0.1:${canary.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${canary.port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(postgres).toMatch(/^HTTP\/1\.1 302 /);
    expect(webUi.lastRequest()).toMatchObject({ url: '/', headers: { host: '127.0.0.1' } });

    const relative = await raw(
      `GET //127.0.0.1:${canary.port}/x HTTP/1.1\r\nHost: 127.0.0.1:${proxyPort}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(relative).toMatch(/^HTTP\/1\.1 404 /);
    expect(webUi.lastRequest()!.url).toBe(`//127.0.0.1:${canary.port}/x`);

    const tunnel = await raw(
      `CONNECT 127.0.0.1:${canary.port} HTTP/1.1\r\nHost: 127.0.0.1:${canary.port}\r\nCookie: ${cookie}\r\n\r\n`,
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
    expect(canary.hits).toBe(0);
  });

  it("a LAN service's redirect elsewhere is handed to the browser, never followed; its cookies never reach the console", async () => {
    // A hostile web server on the device's LAN, behind an http remote entry.
    let seenCookie: string | undefined;
    const hostile = createHttpServer((request, response) => {
      seenCookie = request.headers.cookie;
      if (request.url === '/gz') {
        // Compressed although the proxy asked for identity: the page is still rewritten.
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
        return response.end(gzipSync('<a href="http://192.168.1.80/zipped">zipped</a>'));
      }
      if (request.url === '/go') {
        response.writeHead(302, { location: `http://127.0.0.1:${canary.port}/latest/meta-data/` });
        return response.end();
      }
      response.writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': [
          'fg_session=planted; Domain=127.0.0.1; Path=/; HttpOnly',
          'XSRF-TOKEN=planted; Path=/',
          'theme=dark; Path=/; Secure; SameSite=None',
        ],
        'clear-site-data': '"cookies"',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      });
      response.end(
        '<a href="http://192.168.1.80/next">next</a> <a href="http://192.168.1.80:8080/other">other</a>',
      );
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', () => resolve()));
    agent.services!.serve('192.168.1.80', 80, {
      host: '127.0.0.1',
      port: (hostile.address() as AddressInfo).port,
    });
    try {
      const entry = await acme.post('/api/devices/remote-access', {
        device_id: deviceId,
        name: 'Camera',
        protocol: 'http',
        host: '192.168.1.80',
      });
      const browser = await opened(acme, { entry_id: entry.json().data.id });
      const page = await browser.get('/');
      expect(page.status).toBe(200);
      const cookies = page.headers['set-cookie']!;
      expect(cookies).toHaveLength(3);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/^fgd_[0-9a-f]{8}_/);
        expect(cookie).not.toMatch(/domain=|secure|samesite=none/i);
      }
      expect(cookies[0]).toMatch(/^fgd_[0-9a-f]{8}_fg_session=planted; Path=\/; HttpOnly$/);
      // The browser's console cookies stand as they were.
      expect(browser.cookies.get('fg_session')).toBe(acme.cookies.get('fg_session'));
      expect(browser.cookies.get('XSRF-TOKEN')).toBe(acme.cookies.get('XSRF-TOKEN'));
      expect(page.headers['clear-site-data']).toBeUndefined();
      expect(page.headers['strict-transport-security']).toBeUndefined();
      // Its own origin is rewritten; another port of the same host is another origin, left alone.
      expect(page.body).toBe(
        `<a href="${proxyOrigin}/next">next</a> <a href="http://192.168.1.80:8080/other">other</a>`,
      );

      // Its cookies come back to it under their own names; the console's never do.
      await browser.get('/again');
      expect(seenCookie).toBe('fg_session=planted; XSRF-TOKEN=planted; theme=dark');
      expect(seenCookie).not.toContain(acme.cookies.get('fg_session')!);

      const zipped = await browser.get('/gz');
      expect(zipped.headers['content-encoding']).toBeUndefined();
      expect(zipped.body).toBe(`<a href="${proxyOrigin}/zipped">zipped</a>`);

      const go = await browser.get('/go');
      expect(go.status).toBe(302);
      expect(go.headers.location).toBe(`http://127.0.0.1:${canary.port}/latest/meta-data/`);
      expect(canary.hits).toBe(0);
      const [row] = await sessionsOf(acme, `&entry_id=${entry.json().data.id}`);
      expect(row).toMatchObject({ protocol: 'http', port: 80 });
    } finally {
      hostile.close();
    }
  });
});

describe('the proxy origin (PROXY_PORT, PROXY_HOST, PROXY_URL)', () => {
  it('is an origin of its own: never the console’s, never a path', () => {
    expect(loadConfig({ HOST: '10.0.0.2' })).toMatchObject({ proxyPort: 0, proxyHost: '10.0.0.2' });
    expect(
      loadConfig({ PROXY_URL: 'https://devices.example.com/', PUBLIC_URL: 'https://console.example.com' })
        .proxyUrl,
    ).toBe('https://devices.example.com');
    expect(() =>
      loadConfig({ PROXY_URL: 'https://console.example.com', PUBLIC_URL: 'https://console.example.com/' }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ PROXY_URL: 'https://console.example.com/device' })).toThrow(
      /PROXY_URL must be an origin only/,
    );
  });
});

/** A self-signed certificate, as devices carry, made with the openssl command; undefined where it is not installed. */
function selfSigned(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=RUTX11'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const certificate = selfSigned();
if (!certificate) console.warn('web-proxy tests: openssl not found; the https case is skipped');

describe.skipIf(!certificate)('https device web pages', () => {
  it("speaks TLS to the device's self-signed certificate inside the tunnel", async () => {
    // The device's https port: TLS in front of its web UI, with a certificate nobody signed.
    const tls = createTlsServer(certificate!, (socket) => {
      const plain = connect(webUi.address.port, webUi.address.host);
      socket.pipe(plain).pipe(socket);
      socket.on('error', () => plain.destroy());
      plain.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', () => resolve()));
    agent.services!.serve('127.0.0.1', 443, { host: '127.0.0.1', port: (tls.address() as AddressInfo).port });
    try {
      const browser = await opened(acme, { device_id: deviceId, protocol: 'https' });
      const login = await browser.get('/cgi-bin/luci');
      expect(login.status).toBe(200);
      expect(login.body).toContain('name="luci_password"');
      const live = (await sessionsOf(acme, '&active=true')).filter((r) => r.protocol === 'https');
      expect(live).toEqual([expect.objectContaining({ port: 443 })]);
    } finally {
      tls.close();
    }
  });
});
