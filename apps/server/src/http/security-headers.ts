import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

/**
 * Powerful browser features the console never uses, switched off for it and for anything
 * it might frame (docs/security.md, 'Response headers'). Helmet has no option for this header.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/**
 * The same policy's main features for API answers. An answer opened as a page can run
 * nothing (`default-src 'none'`), and every feature needs a script to ask for it, so the
 * short list says the same at a fifth of the bytes every answer carries.
 */
const API_PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()';

/** `scheme://host[:port]` of a URL, the form a CSP source takes. */
const originOf = (url: string) => new URL(url).origin;

/**
 * The CSP source that allows a Leaflet tile URL template's images: its origin, with a `{s}`
 * subdomain placeholder widened to `*.` (https://{s}.tile.example → https://*.tile.example).
 */
export function tileSource(template: string): string {
  const match = /^(https?:\/\/)(\{s\}\.)?([^/{}]+)/.exec(template);
  if (!match) throw new Error(`not a tile URL: ${template}`);
  const [, scheme, subdomain, host] = match;
  const origin = originOf(`${scheme}${host}`);
  return subdomain ? origin.replace('://', '://*.') : origin;
}

/** The console's Content-Security-Policy directives (docs/security.md explains each). */
export function consoleCspDirectives(config: Config): Record<string, string[]> {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  const connect = ["'self'"];
  // CSP Level 3 browsers let 'self' cover the socket's ws(s):// address; older ones need it named.
  if (config.publicUrl) connect.push(originOf(config.publicUrl).replace(/^http/, 'ws'));
  // The vendor identity service, should a page ever talk to it directly (today it is a redirect).
  if (config.oidc) connect.push(originOf(config.oidc.issuer));
  return {
    'default-src': ["'self'"],
    // No inline script anywhere: the built index.html loads one module file.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Mantine writes <style> elements at run time and Leaflet's markers carry style
    // attributes (docs/decisions.md, 'Content-Security-Policy: inline styles').
    'style-src': ["'self'", "'unsafe-inline'"],
    // Pictures of other sites too: a user's avatar is any http(s) address (account profile),
    // and an image runs no code. Over https, upgrade-insecure-requests asks for it securely.
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      tileSource(config.mapTileUrl),
      'https:',
      ...(https ? [] : ['http:']),
    ],
    'font-src': ["'self'", 'data:'],
    'connect-src': connect,
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // Over plain http an upgrade would send the console's own requests to a port that is not there.
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Helmet's settings for the console (docs/security.md, 'Response headers'). */
export function helmetOptions(config: Config): HelmetOptions {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  return {
    contentSecurityPolicy: { useDefaults: false, directives: consoleCspDirectives(config) },
    // Sign-in at the identity service is a full-page redirect, never a popup: nothing needs the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // The tile server sends no Cross-Origin-Resource-Policy of its own, so no COEP.
    crossOriginEmbedderPolicy: false,
    // The origin alone leaves for other sites: tile servers ask for a referrer, paths stay ours.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only once the console is reached over https; a year, and not the names below the console's.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
  };
}

/**
 * The headers helmet sets for these options, worked out once. They are the same for every
 * answer (no nonces: the console has no inline script), so building helmet's middleware per
 * request, as its Fastify plugin does, would spend time on every request for nothing.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * What an API answer carries instead of the page's set: OWASP's advice for a JSON API. The
 * API serves no document, so a page's policy (scripts, styles, images, the legacy headers
 * helmet adds for old browsers) has nothing to govern there; `default-src 'none'` says that
 * anything an answer were ever rendered as may load nothing, and framing, sniffing,
 * cross-origin reads and storing stay refused. Half the bytes of every API answer were the
 * page's headers, and writing them cost more than the answer itself
 * (docs/performance.md, the signed-in floor).
 */
export function apiHeaders(page: Record<string, string>): Record<string, string> {
  const keep = [
    'x-content-type-options',
    'x-frame-options',
    'referrer-policy',
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
    'strict-transport-security',
  ];
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'permissions-policy': API_PERMISSIONS_POLICY,
    'cache-control': 'no-store',
  };
  for (const name of keep) if (page[name]) headers[name] = page[name];
  return headers;
}

/**
 * Security headers on every answer the HTTP server gives (pages, files, API, errors), as
 * helmet words them. API answers get the API's set, with `Cache-Control: no-store` unless
 * the route sets caching of its own, since most of them carry personal data
 * (docs/security.md, 'Response headers'). The API description's pages are pages.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const page = { ...helmetHeaders(helmetOptions(app.config)), 'permissions-policy': PERMISSIONS_POLICY };
  const api = apiHeaders(page);
  // helmet removes X-Powered-By; Fastify never sends it.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApi(request.url) ? api : page);
    done();
  });
}

const isApi = (url: string) =>
  (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) && !url.startsWith('/api/docs');
