import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** System-wide settings by key (the SMTP configuration, ...); brands have their own table (brands.ts). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
