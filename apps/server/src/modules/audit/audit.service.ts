import type { Db } from '../../db/database';
import { auditLog } from '../../db/schema/audit';

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

/** Writes one audit row (ARCHITECTURE §6). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.subjectUserId ?? null,
    companyId: entry.companyId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}

/** Who did it: the real person as actor, and the impersonated user as subject when impersonating. */
export function auditIdentity(auth: { principal: { id: number }; actor: { id: number } | null }) {
  return auth.actor
    ? { actorUserId: auth.actor.id, subjectUserId: auth.principal.id }
    : { actorUserId: auth.principal.id, subjectUserId: null };
}
