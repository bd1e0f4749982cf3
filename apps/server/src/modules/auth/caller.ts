import type { Db } from '#src/db/database';
import type { AccountBlock } from '../account/account-state';
import { impersonationRepository } from '../impersonation/impersonation.repository';
import { findPrincipal, type Principal } from '../users/principal.repository';
import { type SessionRow, sessionsRepository } from './sessions.repository';

/** Who a live session stands for: the one answer HTTP requests and sockets both use. */
export type Caller = {
  session: SessionRow;
  /** The user the session acts as (the impersonated user when impersonating). */
  principal: Principal;
  /** The real person when impersonating, else null. */
  actor: Principal | null;
};

/** Why `actor` may not act as `target`, or null when they may (the impersonation rule). */
export type ImpersonationRefusal = 'outside' | 'system_admin' | 'above' | 'no_right';

/**
 * The impersonation rule, checked when an impersonation starts and again on every request
 * and socket while it lasts: the actor holds `impersonate_users`; the user belongs to a
 * company strictly inside the actor's subtree; is not a system administrator; and holds
 * no permission the actor lacks (nobody borrows rights above their own).
 */
export function impersonationRefusal(actor: Principal, target: Principal): ImpersonationRefusal | null {
  const base = actor.company.path;
  if (!target.company.path.startsWith(base) || target.company.path === base) return 'outside';
  if (target.permissions.includes('super_admin')) return 'system_admin';
  if (!actor.permissions.includes('impersonate_users')) return 'no_right';
  const held = new Set(actor.permissions);
  if (target.permissions.some((p) => !held.has(p))) return 'above';
  return null;
}

/**
 * Resolves a live session to its caller, or undefined when the session no longer stands
 * for anyone: the user is gone, or the impersonation behind it no longer passes the rule
 * (which then ends it).
 */
export async function callerOfSession(db: Db, session: SessionRow): Promise<Caller | undefined> {
  const principal = await findPrincipal(db, session.userId);
  if (!principal) return undefined;
  if (session.actorUserId === null) return { session, principal, actor: null };
  const actor = await findPrincipal(db, session.actorUserId);
  if (actor && impersonationRefusal(actor, principal) === null) return { session, principal, actor };
  // It ends for good: a right given back later does not revive it, and the log shows its end.
  const now = new Date();
  await sessionsRepository.revoke(db, session.id, 'impersonation_rule', now);
  await impersonationRepository.endLog(db, session.id, now);
  return undefined;
}

/**
 * The product §6 blocking condition that holds the caller, if any. The support person acting
 * as the user is not held by it: they are not the one who must confirm an address or enrol.
 */
export function blockOf(caller: Pick<Caller, 'principal' | 'actor'>): AccountBlock | null {
  return caller.actor ? null : caller.principal.block;
}
