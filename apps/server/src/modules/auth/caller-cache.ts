import { randomUUID } from 'node:crypto';
import type { Database } from '#src/db/database';
import { ACCESS_CHANNEL, type AccessChange, parseAccessChange } from '#src/realtime/access-watch';
import type { AuthService } from './auth.service';
import { type Caller, callerOfSession } from './caller';
import { sessionsRepository, TOUCH_EVERY_MS } from './sessions.repository';

/** The channel of migration 0017_principal_changes: what a cached caller carries changed. */
export const PRINCIPAL_CHANNEL = 'fg_principal';

/** How long a caller is kept without being asked again; changes drop it sooner, at once. */
const KEEP_MS = 5_000;
/** Callers kept at most; the oldest go first. */
const MAX_CALLERS = 20_000;
/** How long `settle` waits for its own notification before giving up (the change still lands). */
const SETTLE_TIMEOUT_MS = 1_000;

type Entry = { caller: Caller; until: number };

export type CallerCache = {
  /** The caller of a session's access token, or undefined when it stands for nobody. */
  resolve(accessToken: string, now?: Date): Promise<Caller | undefined>;
  /**
   * The caller of a token kept in memory, at once, when nothing is due (no expiry, no
   * activity to record); else undefined, and `resolve` answers.
   */
  kept(accessToken: string, now?: Date): Caller | undefined;
  /**
   * Resolves once every change committed before the call has reached this server's
   * cache. On PGlite notifications arrive before the write returns, so it is at once; on
   * PostgreSQL they come over another connection, so a request that changed something
   * waits here before it answers, and the caller's next request sees the change.
   */
  settle(): Promise<void>;
  /** How many callers are kept (tests and benches). */
  size(): number;
  close(): Promise<void>;
};

/** Whether a change concerns a kept caller: its session, either person, their role or company. */
function concerns(change: AccessChange, { session, principal, actor }: Caller): boolean {
  switch (change.kind) {
    case 'session':
      return session.id === change.id;
    case 'user':
      return principal.id === change.id || actor?.id === change.id;
    case 'role':
      return principal.role.id === change.id || actor?.role.id === change.id;
    case 'company':
      return principal.company.id === change.id || actor?.company.id === change.id;
    case 'device':
      return false;
  }
}

/**
 * Keeps the callers of recent requests, so a signed-in request that needs nothing but its
 * caller touches no table on its way: the session, user, company, role and permissions
 * come from memory. The database announces every change of what a caller carries, to
 * every server on it (triggers of migrations 0014 and 0017, delivered at commit), and the
 * caller concerned is dropped at once; a caller is asked again at the latest after
 * KEEP_MS in any case. A session still ends on time: its expiry, idleness and the access
 * token's life are checked against the clock on every request.
 */
export async function createCallerCache(deps: {
  database: Database;
  auth: AuthService;
  keepMs?: number;
}): Promise<CallerCache> {
  const { database, auth } = deps;
  const keepMs = deps.keepMs ?? KEEP_MS;
  const entries = new Map<string, Entry>();
  const fences = new Map<string, () => void>();
  // Bumped by every change: a caller read from the database while a change arrived may
  // predate it, so it is answered but not kept.
  let generation = 0;

  const drop = (change: AccessChange | 'all') => {
    generation++;
    if (change === 'all') return entries.clear();
    for (const [key, entry] of entries) if (concerns(change, entry.caller)) entries.delete(key);
  };
  const listener = {
    onMessage(payload: string) {
      if (payload.startsWith('f:')) return fences.get(payload.slice(2))?.();
      const change = parseAccessChange(payload);
      if (change) drop(change);
    },
    // Notifications may have been missed while the connection was down: forget everyone.
    onGap: () => drop('all'),
  };
  const stops = await Promise.all([
    database.listen(ACCESS_CHANNEL, listener),
    database.listen(PRINCIPAL_CHANNEL, listener),
  ]);

  /** Whether the session may still be used now, by the clock alone. */
  const inTime = (caller: Caller, now: Date) =>
    caller.session.accessExpiresAt > now && auth.endOf(caller.session) > now;

  /** Records activity as the database would have, at most once a minute per session. */
  async function keepAlive(key: string, entry: Entry, now: Date): Promise<Caller> {
    const { session } = entry.caller;
    if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_EVERY_MS) return entry.caller;
    await sessionsRepository.touch(database.db, session, now);
    const caller = { ...entry.caller, session: { ...session, lastSeenAt: now } };
    if (entries.get(key) === entry) entries.set(key, { ...entry, caller });
    return caller;
  }

  return {
    kept(accessToken, now = new Date()) {
      const entry = entries.get(accessToken);
      if (!entry || entry.until <= now.getTime() || !inTime(entry.caller, now)) return undefined;
      if (now.getTime() - entry.caller.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) return undefined;
      return entry.caller;
    },

    async resolve(accessToken, now = new Date()) {
      // Kept by the token itself: a map lookup, where hashing it would cost a tenth of the
      // request. The tokens live only in this process's memory, as they do in each request.
      const key = accessToken;
      const kept = entries.get(key);
      if (kept && kept.until > now.getTime() && inTime(kept.caller, now)) return keepAlive(key, kept, now);
      if (kept) entries.delete(key);
      const seen = generation;
      const session = await auth.resolve(accessToken);
      const caller = session ? await callerOfSession(database.db, session) : undefined;
      if (caller && seen === generation) {
        if (entries.size >= MAX_CALLERS) entries.delete(entries.keys().next().value as string);
        entries.set(key, { caller, until: now.getTime() + keepMs });
      }
      return caller;
    },

    async settle() {
      if (database.kind !== 'postgres') return;
      const id = randomUUID();
      // Notifications reach a listener in commit order, so once this one is heard every
      // change committed before it has been heard too.
      const heard = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
        fences.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await database.notify(PRINCIPAL_CHANNEL, `f:${id}`);
      await heard.finally(() => fences.delete(id));
    },

    size: () => entries.size,

    async close() {
      entries.clear();
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
