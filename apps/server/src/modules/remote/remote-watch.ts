import type { FastifyInstance } from 'fastify';
import { ACCESS_CHANNEL, type AccessChange, parseAccessChange } from '#src/realtime/access-watch';
import { blockOf, callerOfSession } from '../auth/caller';
import { devicesRepository } from '../devices/devices.repository';
import { scopeOf } from '../policy/scope';
import { REMOTE_SESSION_PERMISSIONS, type WatchedAccess } from './remote.service';

/** Changes arriving within this window are looked at together. */
const BATCH_MS = 100;
/** A live session is also re-checked this often: its sign-in session may simply have ended. */
const SWEEP_MS = 30_000;

export const ACCESS_REVOKED = 'Your access to the device was revoked';

function concerns(change: AccessChange, session: WatchedAccess): boolean {
  const { caller } = session.ctx;
  switch (change.kind) {
    case 'session':
      return caller.session.id === change.id;
    case 'user':
      return caller.principal.id === change.id || caller.actor?.id === change.id;
    case 'role':
      return caller.principal.role.id === change.id || caller.actor?.role.id === change.id;
    case 'company':
      // A moved subtree or a deleted company may take the device out of reach.
      return true;
    case 'device':
      return session.deviceId === change.id;
  }
}

/**
 * Ends remote sessions and port forwards whose opener lost the right to them, within a second of the change:
 * the sign-in session revoked or ended (sign-out, password change), the user blocked, the
 * role's permissions narrowed, the device moved out of reach. The database announces each
 * change (ACCESS_CHANNEL) to every server, as for the realtime sockets.
 */
export async function watchRemoteAccess(app: FastifyInstance, watched: () => WatchedAccess[]) {
  let pending: AccessChange[] | 'all' = [];
  let timer: NodeJS.Timeout | undefined;

  async function stillAllowed(session: WatchedAccess): Promise<boolean> {
    const signedIn = await app.authService.live(session.ctx.caller.session.id);
    const caller = signedIn ? await callerOfSession(app.db, signedIn) : undefined;
    if (!caller || blockOf(caller)) return false;
    if (!REMOTE_SESSION_PERMISSIONS.every((p) => caller.principal.permissions.includes(p))) return false;
    return Boolean(await devicesRepository.findInScope(app.db, scopeOf(caller), session.deviceId));
  }

  async function recheck(sessions: WatchedAccess[]) {
    for (const session of sessions) {
      if (!(await stillAllowed(session))) session.end(ACCESS_REVOKED);
    }
  }
  const run = (sessions: WatchedAccess[]) => {
    if (sessions.length)
      recheck(sessions).catch((error: unknown) =>
        app.log.error({ err: error }, 'remote session re-check failed'),
      );
  };

  const flush = () => {
    timer = undefined;
    const changes = pending;
    pending = [];
    run(watched().filter((s) => changes === 'all' || changes.some((c) => concerns(c, s))));
  };
  const queue = (change: AccessChange | 'all') => {
    if (change === 'all') pending = 'all';
    else if (pending !== 'all') pending.push(change);
    timer ??= setTimeout(flush, BATCH_MS);
  };
  const stop = await app.database.listen(ACCESS_CHANNEL, {
    onMessage: (payload) => {
      const change = parseAccessChange(payload);
      if (change) queue(change);
    },
    onGap: () => queue('all'),
  });
  const sweep = setInterval(() => run(watched()), SWEEP_MS);
  sweep.unref();

  return async () => {
    clearInterval(sweep);
    clearTimeout(timer);
    await stop();
  };
}
