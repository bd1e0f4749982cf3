import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

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
    /**
     * product §3 Company payment_type: 'paid' when the company buys its resources (the brand's
     * buy link may show), 'free' when they are given to it (partners, demos; never a buy link).
     * Set by the super admin; a new subsidiary starts with its parent's.
     */
    paymentType: text('payment_type').notNull().default('paid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('companies_parent_idx').on(t.parentId),
    index('companies_path_idx').using('btree', sql`${t.path} text_pattern_ops`),
    check('companies_payment_type_check', sql`${t.paymentType} in ('paid', 'free')`),
  ],
);
