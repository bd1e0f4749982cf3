import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RemoteProtocol } from '@fleetgate/shared/devices/tunnel';
import type { FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import { AppError } from '#src/http/errors';
import { identify, socketOriginAllowed } from '#src/realtime/handshake';
import { blockOf, callerOfSession } from '../auth/caller';
import { type ServiceContext, upgradeContext } from '../service-context';
import { REMOTE_SESSION_PERMISSIONS, type RemoteDevice, remoteService } from './remote.service';
import { shareLinksService } from './share-links';

/**
 * Answers a WebSocket upgrade the server will not take with a bare HTTP status, before any
 * WebSocket exists: the tunnel and the console's bridges refuse this way (401, 403, 404, ...).
 */
export function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** What a console bridge reaches: the host and port of a device service, by protocol. */
export type ConnectTarget = {
  host: string;
  port: number;
  protocol: RemoteProtocol;
  entryId: number | null;
  shareLinkId?: string | null;
};

type Admission =
  | { ok: false; status: number; text: string }
  | { ok: true; ctx: ServiceContext; device: RemoteDevice; target: ConnectTarget };

/**
 * Who may open a console bridge (the terminal, the desktop): checked like the realtime socket
 * (session cookie, the console's own Origin), then by the right to act on the device
 * (view_device_remote_access and manage_devices, device in scope). The target is a remote
 * entry (`entry_id`) or a device's own service (`device_id`, `protocol`, `port`), and its
 * protocol must be one the bridge speaks.
 */
async function admit(
  app: FastifyInstance,
  request: IncomingMessage,
  protocols: readonly RemoteProtocol[],
): Promise<Admission> {
  if (!socketOriginAllowed(request, app.config.publicUrl))
    return { ok: false, status: 403, text: 'Forbidden' };
  const query = new URL(request.url ?? '/', 'http://x').searchParams;
  const key = query.get('key');
  if (key !== null) return admitShared(app, request, key, protocols);
  const caller = await identify(app, request);
  if (!caller) return { ok: false, status: 401, text: 'Unauthorized' };
  // Opening a session is an action on the device: a role that may only look (the guests) sees
  // remote access but never opens it (docs/decisions.md, Remote access).
  if (!REMOTE_SESSION_PERMISSIONS.every((p) => caller.principal.permissions.includes(p)))
    return { ok: false, status: 403, text: 'Forbidden' };
  const number = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
  const port = number('port');
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65_535))
    return { ok: false, status: 400, text: 'Bad Request' };
  const protocol = (query.get('protocol') ?? protocols[0]) as RemoteProtocol;
  if (!protocols.includes(protocol)) return { ok: false, status: 400, text: 'Bad Request' };
  const ctx = upgradeContext(app, request, caller);
  try {
    const { device, target } = await remoteService.resolveTarget(
      ctx,
      { device_id: number('device_id'), entry_id: number('entry_id'), port },
      protocol,
    );
    // An entry of another protocol is opened by its own screen.
    if (!protocols.includes(target.protocol)) return { ok: false, status: 400, text: 'Bad Request' };
    return { ok: true, ctx, device, target };
  } catch (error) {
    if (error instanceof AppError)
      return error.status === 409
        ? { ok: false, status: 409, text: 'Conflict' }
        : { ok: false, status: 404, text: 'Not Found' };
    throw error;
  }
}

/**
 * A share link's key instead of a sign-in (product §2; share-links.ts): the link must open now,
 * in a protocol this bridge speaks, and its creator's sign-in must still stand and hold the
 * right to the device. The session is then the creator's, marked as opened with the link.
 */
async function admitShared(
  app: FastifyInstance,
  request: IncomingMessage,
  key: string,
  protocols: readonly RemoteProtocol[],
): Promise<Admission> {
  const link = await shareLinksService.opened(app.db, key);
  if (!link) return { ok: false, status: 401, text: 'Unauthorized' };
  if (!protocols.includes(link.protocol)) return { ok: false, status: 400, text: 'Bad Request' };
  const signedIn = await app.authService.live(link.session_id);
  const caller = signedIn ? await callerOfSession(app.db, signedIn) : undefined;
  if (!caller || blockOf(caller)) return { ok: false, status: 401, text: 'Unauthorized' };
  if (!REMOTE_SESSION_PERMISSIONS.every((p) => caller.principal.permissions.includes(p)))
    return { ok: false, status: 403, text: 'Forbidden' };
  const ctx = upgradeContext(app, request, caller);
  try {
    const { device, target } = await remoteService.resolveTarget(
      ctx,
      { entry_id: link.entry_id },
      link.protocol,
    );
    await shareLinksService.used(app.db, link.id);
    return { ok: true, ctx, device, target: { ...target, shareLinkId: link.id } };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: 404, text: 'Not Found' };
    throw error;
  }
}

/**
 * Serves a console bridge at `path`: each upgrade is admitted (above) or refused with its
 * status, and an admitted one becomes a WebSocket handed to `open` with its caller and target.
 */
export function serveConnect(
  app: FastifyInstance,
  wss: WebSocketServer,
  path: string,
  protocols: readonly RemoteProtocol[],
  open: (ws: WebSocket, ctx: ServiceContext, device: RemoteDevice, target: ConnectTarget) => void,
) {
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? '').split('?')[0] !== path) return;
    admit(app, request, protocols).then(
      (admitted) => {
        if (!admitted.ok) return refuseUpgrade(socket, admitted.status, admitted.text);
        wss.handleUpgrade(request, socket, head, (ws) =>
          open(ws, admitted.ctx, admitted.device, admitted.target),
        );
      },
      (error: unknown) => {
        app.log.warn({ err: error }, `${path} upgrade failed`);
        refuseUpgrade(socket, 500, 'Internal Server Error');
      },
    );
  });
}
