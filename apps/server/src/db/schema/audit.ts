import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every change an operator makes: who (actor), acting as whom when impersonating
 * (subject), what, when (ARCHITECTURE §6). Rows outlive the users they name, so no
 * foreign keys.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    subjectUserId: integer('subject_user_id'),
    companyId: integer('company_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_company_at_idx').on(t.companyId, t.at),
    index('audit_log_actor_idx').on(t.actorUserId),
  ],
);
