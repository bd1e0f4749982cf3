import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { users } from './users';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Impersonation access a user grants until a date (product §3 impersonation_access_limit,
 * §4). An admin may also ask for it: the request's token is e-mailed to the user, who
 * confirms on impersonation.access (/users/confirm-impersonation-access/{token}).
 */
export const impersonationGrants = pgTable(
  'impersonation_grants',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestTokenHash: text('request_token_hash'),
    requestExpiresAt: tz('request_expires_at'),
    grantedUntil: tz('granted_until'),
    createdAt: tz('created_at').notNull().defaultNow(),
    confirmedAt: tz('confirmed_at'),
    revokedAt: tz('revoked_at'),
  },
  (t) => [
    index('impersonation_grants_user_idx').on(t.userId),
    uniqueIndex('impersonation_grants_token_key').on(t.requestTokenHash),
  ],
);

/** Impersonation sessions (product §2 users.impersonation-logs): actor, subject, start, end. */
export const impersonationLogs = pgTable(
  'impersonation_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    subjectUserId: integer('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    subjectEmail: text('subject_email').notNull(),
    subjectCompanyId: integer('subject_company_id').references(() => companies.id, { onDelete: 'set null' }),
    sessionId: text('session_id'),
    startedAt: tz('started_at').notNull().defaultNow(),
    endedAt: tz('ended_at'),
  },
  (t) => [index('impersonation_logs_subject_company_idx').on(t.subjectCompanyId, t.startedAt)],
);
