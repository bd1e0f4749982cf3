import type { Db } from '#src/db/database';
import { auditLog } from '#src/db/schema/audit';
import type { AuditEntry } from './audit.service';

const rowOf = (entry: AuditEntry): typeof auditLog.$inferInsert => ({
  action: entry.action,
  actorUserId: entry.actorUserId,
  subjectUserId: entry.subjectUserId ?? null,
  companyId: entry.companyId ?? null,
  targetType: entry.targetType ?? null,
  targetId: entry.targetId === undefined ? null : String(entry.targetId),
  details: entry.details ?? null,
  ip: entry.ip ?? null,
});

/** Only this file writes the audit log. */
export const auditRepository = {
  async insert(db: Db, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length) await db.insert(auditLog).values(entries.map(rowOf));
  },
};
