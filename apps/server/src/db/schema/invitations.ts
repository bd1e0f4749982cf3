import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { roles } from './roles';
import { users } from './users';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Invitations (product §3 newUser, inviteNewCompany): a single-use, expiring link. A user
 * invitation names company and role; a distributor invitation lets the invitee found a
 * new company under the inviter's and become its admin.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').$type<'user' | 'distributor'>().notNull(),
    email: text('email').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').references(() => roles.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    expiresAt: tz('expires_at').notNull(),
    lastSentAt: tz('last_sent_at').notNull().defaultNow(),
    sendCount: integer('send_count').notNull().default(1),
    acceptedAt: tz('accepted_at'),
    acceptedUserId: integer('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: tz('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_key').on(t.tokenHash),
    index('invitations_company_idx').on(t.companyId),
    index('invitations_email_idx').on(t.email),
  ],
);

/** Users moved between companies (product §2 users.move-logs). */
export const userMoveLogs = pgTable(
  'user_move_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    fromCompanyId: integer('from_company_id').references(() => companies.id, { onDelete: 'set null' }),
    toCompanyId: integer('to_company_id').references(() => companies.id, { onDelete: 'set null' }),
    movedBy: integer('moved_by').references(() => users.id, { onDelete: 'set null' }),
    movedAt: tz('moved_at').notNull().defaultNow(),
  },
  (t) => [
    index('user_move_logs_to_idx').on(t.toCompanyId),
    index('user_move_logs_from_idx').on(t.fromCompanyId),
  ],
);
