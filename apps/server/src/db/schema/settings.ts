import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** System-wide settings by key (the brand of product §1, ...). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
