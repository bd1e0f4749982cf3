import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WEB_LINK_SECONDS, type WebPageBody, type WebPageLink } from '@fleetgate/shared/schemas/web-proxy';
import type { FastifyBaseLogger } from 'fastify';
import { digest } from '#src/auth/tokens';
import type { Config } from '#src/config';
import { badRequest, conflict, forbidden } from '#src/http/errors';
import { cookieNames } from '#src/plugins/auth';
import { recordAudit } from '../audit/audit.service';
import type { Caller } from '../auth/caller';
import { callerAudit, type ServiceContext } from '../service-context';
import { type RemoteDevice, remoteService, type SessionTarget } from './remote.service';
import { TunnelAgent } from './tunnel-agent';
import type { TunnelHub, TunnelStream } from './tunnel-hub';
import { forward, pathOf, say } from './web-proxy-forward';
import { cookiePrefix, type DeviceSide } from './web-proxy-rewrite';

/** The proxy's own paths, which no device page gets: redeeming a link, and closing the page. */
export const WEB_PROXY_PATHS = { open: '/__fleetgate/open', close: '/__fleetgate/close' } as const;

export const NEEDS_LINK = 'This device web page needs a new link from the console';
export const LINK_SPENT =
  'This link has expired or was used already: open the device web page again from the console';
export const OTHER_USER =
  'This link was made for another console user: open the device web page from your own console';

/** A proxied page unused this long ends; it lasts this long at most in any case. */
const IDLE_MS = 15 * 60_000;
const MAX_MS = 8 * 60 * 60_000;
/** How often ended pages and spent links are swept. */
const SWEEP_MS = 30_000;
const TICKET_BYTES = 32;

type Target = SessionTarget & { protocol: 'http' | 'https' };

type Ticket = {
  ctx: ServiceContext;
  device: RemoteDevice;
  target: Target;
  origin: string;
  expiresAt: number;
};

type ProxySession = {
  key: string;
  ctx: ServiceContext;
  device: RemoteDevice;
  target: Target;
  side: DeviceSide;
  origin: string;
  prefix: string;
  createdAt: number;
  lastSeen: number;
  agent: TunnelAgent;
  streams: Set<TunnelStream>;
  /** Bytes of the streams already closed; the live ones are read as they stand. */
  closedBytes: { to_device: number; from_device: number };
  history?: Awaited<ReturnType<typeof remoteService.recordSession>>;
  ended?: string;
};

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Why a proxy session is over by the clock, if it is. */
function expiry(session: Pick<ProxySession, 'lastSeen' | 'createdAt'>, now: number): string | undefined {
  if (now - session.lastSeen > IDLE_MS) return 'The device web page was left unused';
  if (now - session.createdAt > MAX_MS) return 'The device web page reached its time limit';
  return undefined;
}

const sameUser = (a: Pick<Caller, 'principal' | 'actor'>, b: Pick<Caller, 'principal' | 'actor'>) =>
  a.principal.id === b.principal.id && (a.actor?.id ?? null) === (b.actor?.id ?? null);

/**
 * The device web page proxy (docs/decisions.md, Remote access): a listener of its own on
 * PROXY_PORT, an origin apart from the console's, so a device page can never run on the
 * console's origin. `link` makes a single-use link, valid WEB_LINK_SECONDS, bound to the user,
 * their console session, the device and the target; redeeming it opens a proxy session (its
 * own cookie), which is one session of the access history metered over all its streams. Each
 * request re-checks the console session behind it, and the access watch ends it when the
 * right to the device goes. Every request goes through a tunnel stream to the target alone,
 * whatever host the browser names.
 */
export function createWebProxy(deps: {
  hub: TunnelHub;
  config: Config;
  auth: { live(sessionId: string): Promise<unknown> };
  callers: { resolve(accessToken: string): Promise<Caller | undefined> };
  log: FastifyBaseLogger;
}) {
  const tickets = new Map<string, Ticket>();
  const sessions = new Map<string, ProxySession>();
  let server: Server | undefined;
  let port: number | undefined;
  let sweep: NodeJS.Timeout | undefined;

  const secureOrigin = (origin: string) => origin.startsWith('https:');
  const cookieName = (origin: string) => (secureOrigin(origin) ? '__Host-fg_web' : 'fg_web');

  function originFor(ctx: ServiceContext): string {
    if (deps.config.proxyUrl) return new URL(deps.config.proxyUrl).origin;
    if (port === undefined) throw conflict('The device web page proxy is not running');
    const url = new URL(ctx.baseUrl);
    url.port = String(port);
    return url.origin;
  }

  function close(session: ProxySession, reason: string) {
    if (session.ended) return;
    session.ended = reason;
    sessions.delete(session.key);
    session.agent.destroy();
    for (const stream of session.streams) stream.socket.destroy();
    session.history?.finish(reason);
  }

  /** The browser's proxy session, if it has one that is still in time. */
  function sessionOf(request: IncomingMessage): ProxySession | undefined {
    const names = ['fg_web', '__Host-fg_web'];
    for (const name of names) {
      const value = cookieOf(request, name);
      const session = value ? sessions.get(digest(value)) : undefined;
      if (!session) continue;
      const over = expiry(session, Date.now());
      if (!over) return session;
      close(session, over);
    }
    return undefined;
  }

  /**
   * Cookies ignore ports: on a proxy apart from the console by port alone, the console's
   * session cookie comes along, and says who uses this browser. It must be the link's user.
   */
  async function sameBrowserUser(request: IncomingMessage, ticket: Ticket): Promise<boolean> {
    const tokens = [cookieNames(true).access, cookieNames(false).access]
      .map((name) => cookieOf(request, name))
      .filter((token): token is string => Boolean(token));
    if (!tokens.length) return true;
    const callers = await Promise.all(tokens.map((token) => deps.callers.resolve(token)));
    const known = callers.filter((c): c is Caller => c !== undefined);
    return known.length > 0 && known.every((c) => sameUser(c, ticket.ctx.caller));
  }

  async function start(ticket: Ticket): Promise<{ session: ProxySession; cookie: string }> {
    const cookie = randomBytes(TICKET_BYTES).toString('base64url');
    const side: DeviceSide = {
      host: ticket.target.host,
      port: ticket.target.port,
      scheme: ticket.target.protocol,
    };
    const session: ProxySession = {
      key: digest(cookie),
      ctx: ticket.ctx,
      device: ticket.device,
      target: ticket.target,
      side,
      origin: ticket.origin,
      prefix: cookiePrefix(ticket.device.id, side),
      createdAt: Date.now(),
      lastSeen: Date.now(),
      agent: new TunnelAgent(() => openStream(session), ticket.target.protocol === 'https'),
      streams: new Set(),
      closedBytes: { to_device: 0, from_device: 0 },
    };
    const bytes = () => {
      const total = { ...session.closedBytes };
      for (const stream of session.streams) {
        const now = stream.bytes();
        total.to_device += now.to_device;
        total.from_device += now.from_device;
      }
      return total;
    };
    session.history = await remoteService.recordSession(
      ticket.ctx,
      ticket.device,
      ticket.target,
      { bytes },
      (why) => close(session, why),
    );
    // Ended while its history row was being written (the server stopping): it never opens.
    if (session.ended) session.history.finish(session.ended);
    else sessions.set(session.key, session);
    return { session, cookie };
  }

  async function openStream(session: ProxySession): Promise<Duplex> {
    if (session.ended) throw new Error(session.ended);
    const stream = await remoteService.openStream(session.ctx, deps.hub, session.device, session.target);
    if (session.ended) {
      stream.socket.destroy();
      throw new Error(session.ended);
    }
    session.streams.add(stream);
    stream.socket.once('close', () => {
      const done = stream.bytes();
      session.streams.delete(stream);
      session.closedBytes.to_device += done.to_device;
      session.closedBytes.from_device += done.from_device;
    });
    return stream.socket;
  }

  async function redeem(request: IncomingMessage, response: ServerResponse, path: string) {
    // GET alone: a HEAD (a link preview) must not spend the link.
    if (request.method !== 'GET') return say(response, 405, 'Method not allowed');
    const ticket = new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('ticket') ?? '';
    const key = digest(ticket);
    const found = tickets.get(key);
    // Single use whatever happens next.
    tickets.delete(key);
    if (!found || found.expiresAt <= Date.now()) return say(response, 401, LINK_SPENT);
    if (!(await sameBrowserUser(request, found))) return say(response, 401, OTHER_USER);
    if (!(await deps.auth.live(found.ctx.caller.session.id))) return say(response, 401, NEEDS_LINK);
    // One origin, so one device page per browser at a time: the one it had before ends.
    const previous = sessionOf(request);
    if (previous) close(previous, 'Another device web page was opened in its place');
    const { session, cookie } = await start(found);
    if (session.ended) return say(response, 401, NEEDS_LINK);
    const secure = secureOrigin(session.origin) ? '; Secure' : '';
    response.writeHead(302, {
      location: '/',
      'set-cookie': `${cookieName(session.origin)}=${cookie}; Path=/; HttpOnly; SameSite=Lax${secure}`,
      'cache-control': 'no-store',
      // The link is spent, but it still names nothing a page it leads to should see.
      'referrer-policy': 'no-referrer',
      'content-length': '0',
    });
    response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = pathOf(request.url);
    if (path === undefined) return say(response, 400, 'Bad request');
    const pathname = path.split('?')[0];
    if (pathname === WEB_PROXY_PATHS.open) return redeem(request, response, path);
    const session = sessionOf(request);
    if (!session) return say(response, 401, NEEDS_LINK);
    if (pathname === WEB_PROXY_PATHS.close) {
      close(session, 'The user closed the device web page');
      return say(response, 200, 'The device web page is closed', {
        'set-cookie': `${cookieName(session.origin)}=; Path=/; HttpOnly; Max-Age=0`,
      });
    }
    // The console session that made the link must still stand: signing out there ends this too.
    if (!(await deps.auth.live(session.ctx.caller.session.id))) {
      close(session, 'The console session that opened it has ended');
      return say(response, 401, NEEDS_LINK);
    }
    session.lastSeen = Date.now();
    forward(session, request, response, path);
  }

  return {
    /**
     * A link that opens a device's web page on the proxy's origin (POST /remote/web). Opening it
     * is an action on the device, as a terminal is: the route asks for the same permissions.
     */
    async link(ctx: ServiceContext, input: WebPageBody): Promise<WebPageLink> {
      // The link is bound to a console session, which an access token is not.
      if (ctx.caller.token)
        throw forbidden('Device web pages open from the console, not with an access token');
      const { device, target } = await remoteService.resolveTarget(
        ctx,
        input.entry_id !== undefined
          ? { entry_id: input.entry_id }
          : { device_id: input.device_id, port: input.port },
        input.protocol ?? 'http',
      );
      if (target.protocol !== 'http' && target.protocol !== 'https')
        throw badRequest('Only http and https remote entries open as web pages', 'entry_id');
      await remoteService.checkData(ctx, device);
      const origin = originFor(ctx);
      const expiresAt = Date.now() + WEB_LINK_SECONDS * 1000;
      await recordAudit(
        ctx.db,
        callerAudit(ctx, {
          action: 'remote.web_open',
          companyId: device.company_id,
          targetType: 'device',
          targetId: device.id,
          details: { target, origin },
        }),
      );
      const ticket = randomBytes(TICKET_BYTES).toString('base64url');
      tickets.set(digest(ticket), {
        ctx,
        device,
        target: { ...target, protocol: target.protocol },
        origin,
        expiresAt,
      });
      return {
        url: `${origin}${WEB_PROXY_PATHS.open}?ticket=${ticket}`,
        expires_at: new Date(expiresAt),
      };
    },

    /** Starts the listener on PROXY_HOST:PROXY_PORT. */
    async listen() {
      const listener = createServer((request, response) => {
        handle(request, response).catch((error: unknown) => {
          deps.log.warn({ err: error }, 'device web page request failed');
          say(response, 500, 'The device web page could not be shown');
        });
      });
      // No tunnel to anywhere but the session's target: CONNECT and upgrades are refused.
      listener.on('connect', (_request, socket: Duplex) =>
        socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'),
      );
      listener.on('upgrade', (_request, socket: Duplex) =>
        socket.end('HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'),
      );
      await new Promise<void>((resolve, reject) => {
        listener.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            new Error(
              `Cannot listen on ${deps.config.proxyHost}:${deps.config.proxyPort} for device web pages (${error.code ?? error.message}). Set PROXY_PORT to another port.`,
            ),
          ),
        );
        listener.listen(deps.config.proxyPort, deps.config.proxyHost, () => resolve());
      });
      server = listener;
      port = (listener.address() as AddressInfo).port;
      sweep = setInterval(() => {
        const now = Date.now();
        for (const [key, ticket] of tickets) if (ticket.expiresAt <= now) tickets.delete(key);
        for (const session of [...sessions.values()]) {
          const over = expiry(session, now);
          if (over) close(session, over);
        }
      }, SWEEP_MS);
      sweep.unref();
    },

    /** The port the proxy listens on (after `listen`). */
    port: () => port,

    /** Ends every proxy session and stops listening (the server is closing). */
    async close() {
      clearInterval(sweep);
      tickets.clear();
      for (const session of [...sessions.values()]) close(session, 'The server stopped');
      const listener = server;
      server = undefined;
      if (!listener) return;
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      });
    },
  };
}

export type WebProxy = ReturnType<typeof createWebProxy>;
