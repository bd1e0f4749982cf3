import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Web notifications of product §3: unseen until `seen_at` is set. */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    summary: text('summary').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    /** Sent at most once per user and key (a finished action, whichever server saw it end). */
    onceKey: text('once_key'),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, sql`${t.createdAt} desc`),
    uniqueIndex('notifications_user_once_key').on(t.userId, t.onceKey).where(sql`${t.onceKey} is not null`),
  ],
);

/** Global notices of product §3: HTML messages shown to everyone once enabled. */
export const notices = pgTable('notices', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  type: text('type').notNull(),
  /** Sanitised HTML (product §5). */
  message: text('message').notNull(),
  /** Shown from this time on; null while disabled. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  createdBy: integer('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
