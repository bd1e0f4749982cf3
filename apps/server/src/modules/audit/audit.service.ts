import type { Db } from '#src/db/database';
import { auditRepository } from './audit.repository';

export type AuditEntry = {
  action: string;
  /** The real person: the impersonator when impersonating. */
  actorUserId: number | null;
  /** The user acted as, when impersonating. */
  subjectUserId?: number | null;
  companyId?: number | null;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
  ip?: string;
};

/**
 * Writes one audit row (ARCHITECTURE §6). For an event that changes nothing else (a
 * failed sign-in); a change and its record go through `audited`.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await auditRepository.insert(db, [entry]);
}

/**
 * Makes a change and writes its audit rows in one transaction, so that both are saved or
 * neither is: a change never lands without its record, nor a record without its change.
 * `change` runs every query on the transaction it is given, never on `db` (PGlite has
 * one connection: a query on `db` would wait for this very transaction to end); a
 * repository that opens its own transaction on it gets a savepoint. `entry` builds the
 * rows from what the change answered (null: nothing to record). Mail, realtime and
 * gateway calls come after this resolves, once the change is committed.
 */
export async function audited<T>(
  db: Db,
  change: (tx: Db) => Promise<T>,
  entry: (result: T) => AuditEntry | AuditEntry[] | null,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    const entries = entry(result) ?? [];
    await auditRepository.insert(tx, Array.isArray(entries) ? entries : [entries]);
    return result;
  });
}

/** Who did it: the real person as actor, and the impersonated user as subject when impersonating. */
export function auditIdentity(auth: { principal: { id: number }; actor: { id: number } | null }) {
  return auth.actor
    ? { actorUserId: auth.actor.id, subjectUserId: auth.principal.id }
    : { actorUserId: auth.principal.id, subjectUserId: null };
}
