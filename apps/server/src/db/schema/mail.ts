import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/** Every message the system sends (product §2 mail.logs), sent or not. */
export const mailLog = pgTable(
  'mail_log',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    template: text('template').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').$type<'sent' | 'unsent' | 'failed' | 'suppressed'>().notNull(),
    error: text('error'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    sentAt: tz('sent_at'),
  },
  (t) => [index('mail_log_created_idx').on(sql`${t.createdAt} desc`), index('mail_log_to_idx').on(t.to)],
);

/** Addresses that bounced or complained: nothing is sent to them (product §3 removeFromSuppresionList). */
export const suppressedEmails = pgTable('suppressed_emails', {
  email: text('email').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});
