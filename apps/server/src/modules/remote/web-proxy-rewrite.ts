import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { WebPageProtocol } from '@fleetgate/shared/schemas/web-proxy';

/**
 * What the device web page proxy changes in the traffic between the browser and a device
 * (web-proxy.ts): which headers pass, how cookies are kept apart from the console's, and
 * how the device's own absolute URLs come back to the proxy's origin. Pure functions.
 */

/** The device side of a proxied page: the entry's host and port through the tunnel, and its scheme. */
export type DeviceSide = { host: string; port: number; scheme: WebPageProtocol };

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** The Host header the device gets: its own address, with the port unless it is the scheme's. */
export const deviceHost = (side: DeviceSide) =>
  side.port === DEFAULT_PORTS[side.scheme] ? side.host : `${side.host}:${side.port}`;

/** The device's own origin, as its pages write it. */
export const deviceOrigin = (side: DeviceSide) => `${side.scheme}://${deviceHost(side)}`;

/**
 * The prefix of a device's cookies in the browser. Cookies ignore ports, so on a proxy that
 * differs from the console by port alone a device cookie keeps its own name only at the risk
 * of replacing a console cookie of that name; the prefix is per device and target, so two
 * devices opened in turn never read each other's cookies either.
 */
export function cookiePrefix(deviceId: number, side: Pick<DeviceSide, 'host' | 'port'>): string {
  const key = createHash('sha256').update(`${deviceId}|${side.host}|${side.port}`).digest('hex').slice(0, 8);
  return `fgd_${key}_`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The device's origin in a URL: its host, with its port (optional when it is the scheme's). */
function hostPattern(side: DeviceSide) {
  const port = side.port === DEFAULT_PORTS[side.scheme] ? `(?::${side.port})?` : `:${side.port}`;
  // Not a longer address (127.0.0.10), another port (127.0.0.1:8080) nor user info (127.0.0.1@host).
  return `${escapeRegExp(side.host)}${port}(?![\\w.@-]|:\\d)`;
}

/**
 * Rewrites the device's absolute URLs in an HTML page to the proxy's origin: `http://device/…`,
 * scheme-relative `//device/…` in attributes, and JSON's escaped `http:\/\/device`. The page is
 * handled as latin1 so that bytes of any ASCII-based charset come back unchanged.
 */
export function rewriteHtml(html: string, side: DeviceSide, proxyOrigin: string): string {
  const proxy = new URL(proxyOrigin);
  const absolute = new RegExp(`(?<![\\w+.-])${side.scheme}:(\\\\?/\\\\?/)${hostPattern(side)}`, 'gi');
  const relative = new RegExp(`(?<=["'(=\\s])(\\\\?/\\\\?/)${hostPattern(side)}`, 'gi');
  return html
    .replace(absolute, (_all, slashes: string) => `${proxy.protocol}${slashes}${proxy.host}`)
    .replace(relative, (_all, slashes: string) => `${slashes}${proxy.host}`);
}

/** A Location (or Content-Location) on the device's own origin, moved to the proxy's; any other is left. */
export function rewriteLocation(location: string, side: DeviceSide, proxyOrigin: string): string {
  const own = new RegExp(`^(?:${side.scheme}:)?//${hostPattern(side)}(?=[/?#]|$)`, 'i');
  return own.test(location) ? location.replace(own, proxyOrigin) : location;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A device's Set-Cookie as the browser gets it: the name prefixed (cookiePrefix), Domain
 * dropped (the cookie belongs to the proxy's host alone), Path and lifetime kept; Secure
 * follows the proxy's scheme, since a browser drops a Secure cookie set over http.
 * Undefined for a cookie without a valid name.
 */
export function rewriteSetCookie(value: string, prefix: string, secure: boolean): string | undefined {
  const [pair = '', ...attributes] = value.split(';');
  const at = pair.indexOf('=');
  const name = pair.slice(0, Math.max(at, 0)).trim();
  if (at < 1 || !TOKEN.test(name)) return undefined;
  const kept = attributes
    .map((a) => a.trim())
    .filter((a) => a && !/^(domain|secure|partitioned)\s*(=|$)/i.test(a))
    // SameSite=None needs Secure: over http it would make the browser refuse the cookie.
    .filter((a) => secure || !/^samesite\s*=\s*none$/i.test(a));
  return [`${prefix}${name}=${pair.slice(at + 1).trim()}`, ...kept, ...(secure ? ['Secure'] : [])].join('; ');
}

/** The cookies the device itself set (prefixed in the browser), under their own names; nothing else. */
export function deviceCookies(header: string | undefined, prefix: string): string | undefined {
  const kept: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(prefix) && trimmed.indexOf('=') > prefix.length)
      kept.push(trimmed.slice(prefix.length));
  }
  return kept.length ? kept.join('; ') : undefined;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those a proxy sets itself, never copied either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The request headers the device gets. Its own Host (the browser's names the proxy); only its
 * own cookies (never the console's, which reach a port-separated proxy, nor the proxy's);
 * Origin and Referer of the proxy's origin moved to the device's, a foreign Referer dropped;
 * no X-Forwarded-* or Forwarded (the device has no business with the user's address, and a
 * device trusting them could be misled). Compression only as gzip, which the proxy can undo
 * to rewrite a page.
 */
export function requestHeaders(
  incoming: IncomingHttpHeaders,
  options: { side: DeviceSide; proxyOrigin: string; prefix: string },
): OutgoingHttpHeaders {
  const named = new Set(
    String(incoming.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase()),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (name.startsWith('x-forwarded-') || name === 'forwarded' || name === 'x-real-ip') continue;
    if (['host', 'cookie', 'origin', 'referer', 'accept-encoding'].includes(name)) continue;
    headers[name] = value;
  }
  const own = deviceOrigin(options.side);
  headers.host = deviceHost(options.side);
  const cookies = deviceCookies(incoming.cookie, options.prefix);
  if (cookies) headers.cookie = cookies;
  if (/\bchunked\b/i.test(String(incoming['transfer-encoding'] ?? '')))
    headers['transfer-encoding'] = 'chunked';
  const origin = incoming.origin;
  if (origin) headers.origin = origin === options.proxyOrigin ? own : origin;
  const referer = incoming.referer;
  if (referer === options.proxyOrigin || referer?.startsWith(`${options.proxyOrigin}/`))
    headers.referer = own + referer.slice(options.proxyOrigin.length);
  headers['accept-encoding'] = /\bgzip\b/i.test(String(incoming['accept-encoding'] ?? ''))
    ? 'gzip'
    : 'identity';
  return headers;
}

/**
 * Response headers the device may not send through the proxy: what concerns the whole host
 * (HSTS, Clear-Site-Data would wipe the console's cookies too, Alt-Svc), and cross-origin
 * grants the console's origin could use to read the device's pages with the user's proxy cookie.
 */
const DEVICE_MAY_NOT_SET = new Set([
  'strict-transport-security',
  'clear-site-data',
  'alt-svc',
  'public-key-pins',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-expose-headers',
]);

/**
 * The response headers the browser gets: cookies renamed (rewriteSetCookie), Location on the
 * device's origin moved to the proxy's, and hardening the device page keeps working under:
 * no framing by other sites, no Referer beyond the proxy, and no shared caching (every
 * device's pages share the proxy's one origin, so a cached page of one must not answer for another).
 */
export function responseHeaders(
  incoming: IncomingHttpHeaders,
  options: { side: DeviceSide; proxyOrigin: string; prefix: string },
): OutgoingHttpHeaders {
  const named = new Set(
    String(incoming.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase()),
  );
  const secure = options.proxyOrigin.startsWith('https:');
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || DEVICE_MAY_NOT_SET.has(name))
      continue;
    headers[name] = value;
  }
  const cookies = (incoming['set-cookie'] ?? [])
    .map((c) => rewriteSetCookie(c, options.prefix, secure))
    .filter((c): c is string => c !== undefined);
  delete headers['set-cookie'];
  if (cookies.length) headers['set-cookie'] = cookies;
  for (const name of ['location', 'content-location'] as const) {
    const value = incoming[name];
    if (value) headers[name] = rewriteLocation(value, options.side, options.proxyOrigin);
  }
  const csp = String(incoming['content-security-policy'] ?? '');
  if (!incoming['x-frame-options'] && !/frame-ancestors/i.test(csp))
    headers['x-frame-options'] = 'SAMEORIGIN';
  if (!incoming['referrer-policy']) headers['referrer-policy'] = 'same-origin';
  if (!/no-store/i.test(String(incoming['cache-control'] ?? '')))
    headers['cache-control'] = 'private, no-cache';
  return headers;
}
