import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sameText } from './same-text';
import type { ServiceDevice } from './services';

/** What the web UI last received: tests read it to prove what reached the device. */
export type SeenRequest = { method: string; url: string; headers: IncomingHttpHeaders };

export type WebUi = {
  address: { host: string; port: number };
  /** The headers of the last request, as the device received them. */
  lastHeaders(): IncomingHttpHeaders | undefined;
  /** The last request's method, target and headers. */
  lastRequest(): SeenRequest | undefined;
  close(): Promise<void>;
};

const SESSION_COOKIE = 'sysauth';
/** A form is a few fields: anything bigger is not a browser filling this UI in. */
const MAX_FORM_BYTES = 16 * 1024;
const DESCRIPTION_MAX = 200;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function cookiesOf(request: IncomingMessage): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', () => resolve(undefined));
  });
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} - LuCI</title></head>
<body><header><h1>${escapeHtml(title)}</h1></header>
${body}
</body></html>
`;
}

const loginForm = (message = '') => `${message}
<form method="post" action="/cgi-bin/luci">
  <label>Username <input name="luci_username" value="admin" autocomplete="username"></label>
  <label>Password <input name="luci_password" type="password" autocomplete="current-password"></label>
  <button type="submit">Login</button>
</form>`;

function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${d}d ${h}h ${m}m`;
}

/**
 * The device's web UI, a tiny LuCI look-alike (docs/device-protocol.md §9: HTTP 80): a login
 * (user `admin`, the device's password) that sets a `sysauth` session cookie, and a status page
 * with the device's facts and a description to edit. Its links are written as a real device
 * writes them: absolute paths, and one with the device's own absolute URL, built from the Host
 * header it received, so a proxy in front of it has to rewrite them. It listens on a loopback
 * port; `DeviceServices.serve` makes it the device's port 80.
 */
export async function startWebUi(device: ServiceDevice): Promise<WebUi> {
  const sessions = new Set<string>();
  let description = '';
  let last: SeenRequest | undefined;

  const send = (
    response: ServerResponse,
    status: number,
    html: string,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(html);
  };
  const redirect = (response: ServerResponse, status: number, location: string, headers = {}) => {
    response.writeHead(status, { location, 'content-length': '0', ...headers });
    response.end();
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    last = { method: request.method ?? 'GET', url: request.url ?? '/', headers: { ...request.headers } };
    const path = (request.url ?? '/').split('?')[0];
    const token = cookiesOf(request).get(SESSION_COOKIE);
    const signedIn = token !== undefined && sessions.has(token);
    // The device's own origin as the browser is supposed to see it: what a proxy must rewrite.
    const origin = `http://${request.headers.host ?? '127.0.0.1'}`;

    if (path === '/') return redirect(response, 302, '/cgi-bin/luci');
    if (path === '/cgi-bin/luci' && request.method === 'POST') {
      const form = await readForm(request);
      const user = form?.get('luci_username') ?? '';
      const password = form?.get('luci_password') ?? '';
      if (!(sameText(user, 'admin') && sameText(password, device.password)))
        return send(
          response,
          403,
          page('Authorization Required', loginForm('<p role="alert">Login failed</p>')),
        );
      const session = randomBytes(16).toString('hex');
      sessions.add(session);
      return redirect(response, 303, '/cgi-bin/luci/status', {
        'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly`,
      });
    }
    if (path === '/cgi-bin/luci' || path === '/cgi-bin/luci/') {
      if (signedIn) return redirect(response, 302, '/cgi-bin/luci/status');
      return send(response, 200, page('Authorization Required', loginForm()));
    }
    if (path === '/cgi-bin/luci/logout') {
      if (token) sessions.delete(token);
      return redirect(response, 302, '/cgi-bin/luci', {
        'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; Max-Age=0`,
      });
    }
    if (path === '/cgi-bin/luci/status') {
      if (!signedIn) return redirect(response, 302, '/cgi-bin/luci');
      if (request.method === 'POST') {
        const form = await readForm(request);
        description = (form?.get('description') ?? '').slice(0, DESCRIPTION_MAX);
        // Absolute, as many devices answer a form: the proxy must bring it back to its own origin.
        return redirect(response, 303, `${origin}/cgi-bin/luci/status`);
      }
      const shell = device.shellDevice();
      const facts: [string, string][] = [
        ['Serial', shell.serial],
        ['Model', shell.model],
        ['Firmware', shell.firmware],
        ['Hostname', shell.hostname],
        ['Uptime', formatUptime(shell.uptimeSeconds)],
        ['Description', description],
      ];
      const rows = facts
        .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
        .join('\n');
      return send(
        response,
        200,
        page(
          'Status',
          `<table id="status">${rows}</table>
<form method="post" action="/cgi-bin/luci/status">
  <label>Description <input name="description" maxlength="${DESCRIPTION_MAX}" value="${escapeHtml(description)}"></label>
  <button type="submit">Save</button>
</form>
<nav><a href="/cgi-bin/luci/status">Refresh</a> <a id="logout" href="${escapeHtml(origin)}/cgi-bin/luci/logout">Logout</a></nav>`,
        ),
      );
    }
    return send(response, 404, page('Not Found', '<p>No page here.</p>'));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    address: { host: '127.0.0.1', port: (server.address() as AddressInfo).port },
    lastHeaders: () => last?.headers,
    lastRequest: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
