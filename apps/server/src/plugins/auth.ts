import { AUTH_BASE, PRODUCT_XSRF_COOKIE, XSRF_COOKIE, XSRF_HEADER } from '@fleetgate/shared/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { safeEqual } from '../auth/tokens';
import { AppError, unauthorized } from '../http/errors';
import { allowedWhileBlocked, blockedError } from '../modules/account/account-state';
import type { IssuedTokens } from '../modules/auth/auth.service';
import { blockOf } from '../modules/auth/caller';
import type { SessionRow } from '../modules/auth/sessions.repository';
import { bearerOf, resolveBearer, tokenPrincipal, tokenSession } from '../modules/tokens/bearer';
import { findPrincipal, type Principal } from '../modules/users/principal.repository';
import type { RouteAccess } from './access';

/**
 * The session cookies' names. Over https they carry the prefixes browsers enforce, so a
 * sibling host cannot plant its own (cookie tossing): `__Host-` (this host only, Secure,
 * path /) where the path is /, `__Secure-` for the refresh cookie, whose path is narrower.
 * Over plain http (a local start) browsers refuse prefixed cookies, so the plain names serve.
 */
export type CookieNames = { access: string; refresh: string; xsrf: string };
const PLAIN_COOKIES: CookieNames = { access: 'fg_session', refresh: 'fg_refresh', xsrf: XSRF_COOKIE };
const SECURE_COOKIES: CookieNames = {
  access: '__Host-fg_session',
  refresh: '__Secure-fg_refresh',
  xsrf: PRODUCT_XSRF_COOKIE,
};

/** Whether the console is served over https: PUBLIC_URL says so, else the connection does. */
export function servedSecurely(publicUrl: string | undefined, encrypted: boolean): boolean {
  return publicUrl ? publicUrl.startsWith('https:') : encrypted;
}

/** The cookie names of this deployment; only these are read (a plain one is ignored over https). */
export const cookieNames = (secure: boolean): CookieNames => (secure ? SECURE_COOKIES : PLAIN_COOKIES);

const requestCookies = (request: FastifyRequest, publicUrl: string | undefined) =>
  cookieNames(servedSecurely(publicUrl, request.protocol === 'https'));

export type AuthContext = {
  session: SessionRow;
  /** The user the session acts as (the impersonated user when impersonating). */
  principal: Principal;
  /** The real person when impersonating, else null. */
  actor: Principal | null;
  /**
   * Set when the caller authenticated with a personal access token (`Authorization:
   * Bearer`): `principal.permissions` is then the user's ∩ the token's scopes.
   */
  token?: { id: number; scopes: string[] };
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isApi = (url: string) => url === '/api' || url.startsWith('/api/');
const isDocs = (url: string) => url.startsWith('/api/docs');

/** Origins a browser may send unsafe requests from: this host, or the configured public URL. */
function originAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (publicUrl && origin === new URL(publicUrl).origin) return true;
  try {
    return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

function cookieOptions(request: FastifyRequest, publicUrl: string | undefined) {
  const secure = servedSecurely(publicUrl, request.protocol === 'https');
  return { names: cookieNames(secure), options: { secure, sameSite: 'lax' as const, path: '/' } };
}

/** The session's access token from the request's cookies. */
export function accessCookie(request: FastifyRequest, publicUrl: string | undefined): string | undefined {
  return request.cookies[requestCookies(request, publicUrl).access];
}

/** The refresh token from the request's cookies. */
export function refreshCookie(request: FastifyRequest, publicUrl: string | undefined): string | undefined {
  return request.cookies[requestCookies(request, publicUrl).refresh];
}

/** Sets the session, refresh and XSRF cookies (product §7 General, ARCHITECTURE §4). */
export function setAuthCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: IssuedTokens,
  publicUrl: string | undefined,
): void {
  const { names, options: base } = cookieOptions(request, publicUrl);
  const maxAge = Math.max(1, Math.floor((tokens.expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(names.access, tokens.accessToken, { ...base, httpOnly: true, maxAge });
  reply.setCookie(names.refresh, tokens.refreshToken, {
    ...base,
    httpOnly: true,
    sameSite: 'strict',
    path: AUTH_BASE,
    maxAge,
  });
  reply.setCookie(names.xsrf, tokens.xsrfToken, { ...base, httpOnly: false, maxAge });
}

export function clearAuthCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string | undefined,
): void {
  const { names, options: base } = cookieOptions(request, publicUrl);
  reply.clearCookie(names.access, base);
  reply.clearCookie(names.refresh, { ...base, path: AUTH_BASE });
  reply.clearCookie(names.xsrf, base);
}

/** The XSRF header must equal the token bound to the session (double submit, checked server-side). */
export function checkXsrf(request: FastifyRequest, session: SessionRow): void {
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  if (typeof header !== 'string' || !safeEqual(header, session.xsrfToken)) {
    throw AppError.of(403, 'FORBIDDEN', 'Missing or invalid X-XSRF-TOKEN header');
  }
}

/** The route's declared access rule (plugins/access), if the request matched a route. */
function routeAccess(request: FastifyRequest) {
  return request.routeOptions.config?.access;
}

/**
 * Personal access tokens reach the permission-gated API and `GET /api/user`, nothing that
 * is merely "signed in" (account settings, tokens, impersonation, password confirmation):
 * a `devices:read` token must never mint a wider one.
 */
function bearerMayCall(request: FastifyRequest): boolean {
  return tokensMayCall(routeAccess(request), request.method, request.routeOptions.url);
}

/** The rule above for a route's access, method and path (the API description states it too). */
export function tokensMayCall(
  access: RouteAccess | undefined,
  method: string,
  url: string | undefined,
): boolean {
  if (!access || 'public' in access || 'permission' in access) return true;
  return method === 'GET' && url === '/api/user';
}

async function authenticateBearer(app: FastifyInstance, request: FastifyRequest, secret: string) {
  const now = new Date();
  const token = await resolveBearer(app.db, secret, now);
  const user = token ? await findPrincipal(app.db, token.userId) : undefined;
  if (!token || !user) throw AppError.of(401, 'UNAUTHORIZED', 'Invalid or expired access token');
  if (!bearerMayCall(request)) {
    throw AppError.of(403, 'FORBIDDEN', 'Personal access tokens cannot call this endpoint');
  }
  request.auth = {
    session: tokenSession(token, now),
    principal: tokenPrincipal(user, token),
    actor: null,
    token: { id: token.id, scopes: token.scopes },
  };
}

/**
 * Resolves the caller of every /api request and enforces the browser protections:
 * X-Requested-With, a same-origin Origin on unsafe methods, and the XSRF token. A request
 * with `Authorization: Bearer` is a script: browsers never add that header on their own,
 * so it needs none of the browser protections and ignores any cookie.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    /** The caller found: the XSRF check of unsafe methods, then the blocking conditions. */
    function admit(request: FastifyRequest, caller: AuthContext, unsafe: boolean) {
      if (unsafe) checkXsrf(request, caller.session);
      request.auth = caller;
      // product §6 blocking conditions: the notice screens' routes only.
      const access = routeAccess(request);
      const block = blockOf(caller);
      if (block && access && !('public' in access)) {
        if (!allowedWhileBlocked(block, request.method, request.routeOptions.url ?? '')) {
          throw blockedError(block);
        }
      }
    }

    // Callback style, not async: a caller kept in memory is admitted without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const url = request.url;
      if (!isApi(url) || isDocs(url)) return done();
      const open = routeAccess(request);
      if (request.method === 'GET' && open && 'public' in open && open.loadedByBrowser) return done();
      const bearer = bearerOf(request.headers.authorization);
      if (bearer) {
        authenticateBearer(app, request, bearer).then(() => done(), done);
        return;
      }
      const token = accessCookie(request, app.config.publicUrl);
      // Nothing to sign in with, for a route that needs a caller: a script that forgot its
      // token learns so, rather than about a browser header (no cookie, nothing to forge).
      if (!token && open && !('public' in open)) {
        throw unauthorized(
          'Authentication required: sign in, or send Authorization: Bearer <personal access token>',
        );
      }
      if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
        throw AppError.of(403, 'FORBIDDEN', 'Requests must carry X-Requested-With: XMLHttpRequest');
      }
      const unsafe = UNSAFE.has(request.method);
      if (unsafe && !originAllowed(request, app.config.publicUrl)) {
        throw AppError.of(403, 'FORBIDDEN', 'Request origin is not allowed');
      }
      if (!token) return done();
      const kept = app.callers.kept(token);
      if (kept) {
        admit(request, kept, unsafe);
        return done();
      }
      app.callers
        .resolve(token)
        .then((caller) => {
          if (caller) admit(request, caller, unsafe);
        })
        .then(() => done(), done);
    });
    // A change answers only once every server's kept callers have heard of it here, so the
    // next request, whatever it is, meets the change (a revoked session, a new role).
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (!UNSAFE.has(request.method) || !isApi(request.url)) return done(null, payload);
      app.callers.settle().then(() => done(null, payload), done);
    });
  },
  { name: 'auth', dependencies: ['access'] },
);
