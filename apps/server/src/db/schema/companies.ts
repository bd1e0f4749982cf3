import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Companies form a tree (product §1: parent companies, levels 1, 2, ...). `path` is the
 * materialised path of ids, '/1/5/9/', so a subtree is one indexed prefix match.
 */
export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => companies.id),
    level: integer('level').notNull(),
    path: text('path').notNull(),
    showPayment: boolean('show_payment').notNull().default(false),
    /** Every user of the company must use two-step verification (product §6 MFA_MANDATORY). */
    mfaMandatory: boolean('mfa_mandatory').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('companies_parent_idx').on(t.parentId),
    index('companies_path_idx').using('btree', sql`${t.path} text_pattern_ops`),
  ],
);
