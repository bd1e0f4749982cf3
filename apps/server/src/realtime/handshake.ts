import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ConnectErrorData } from '@fleetgate/shared/events';
import type { FastifyInstance } from 'fastify';
import { type Caller, callerOfSession } from '../modules/auth/caller';
import { cookieNames, servedSecurely } from '../plugins/auth';

/**
 * The Origin rule of the HTTP side (plugins/auth): no Origin (scripts, and browsers on
 * same-origin GETs) or this host's own origin, or the configured public URL. Checked at
 * the handshake, so another site cannot open a socket with the user's cookie
 * (cross-site WebSocket hijacking).
 */
export function socketOriginAllowed(request: IncomingMessage, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    if (publicUrl && new URL(origin).origin === new URL(publicUrl).origin) return true;
    const host = request.headers.host;
    if (!host) return false;
    const protocol = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
    return new URL(origin).origin === new URL(`${protocol}://${host}`).origin;
  } catch {
    return false;
  }
}

/** The caller behind the handshake's session cookie (auth/caller.ts); undefined without one. */
export async function identify(app: FastifyInstance, request: IncomingMessage): Promise<Caller | undefined> {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const secure = servedSecurely(app.config.publicUrl, Boolean((request.socket as TLSSocket).encrypted));
  const token = app.parseCookie(header)[cookieNames(secure).access];
  if (!token) return undefined;
  const session = await app.authService.resolve(token);
  return session ? callerOfSession(app.db, session) : undefined;
}

/** An Error for `next()` of a socket.io middleware: the client reads `message` and `data`. */
export function handshakeRefusal(code: ConnectErrorData['code'], message: string): Error {
  const error = new Error(message) as Error & { data: ConnectErrorData };
  error.data = { code, message };
  return error;
}
