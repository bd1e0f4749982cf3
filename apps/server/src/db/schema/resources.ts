import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

const tz = (name: string) => timestamp(name, { withTimezone: true });
const amount = (name: string) => bigint(name, { mode: 'number' });

/**
 * The resource catalogue (product §3 Resource type), seeded at every start from
 * `packages/shared/src/resources.ts` so that accounts, codes and entries can name a type.
 */
export const resourceTypes = pgTable('resource_types', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  paymentType: text('payment_type').notNull(),
  licenseType: text('license_type').notNull(),
  durationDays: integer('duration_days'),
  dataBytes: amount('data_bytes'),
});

/**
 * The ledger's accounts (ARCHITECTURE §8 Resources): the issuer (where pools come from and
 * spent resources go), each company's pool of each type, each transfer code's escrow, and
 * each device's connection data packs not used yet.
 * `resource_type_id` is null for company data, counted in bytes. `balance` is kept with every
 * posting in the same transaction and may never fall below zero but for the issuer's; a
 * test checks it against the postings. Companies and codes are named by id without a
 * foreign key, so that the history outlives a removed company (ids are never reused).
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').$type<'issuer' | 'company' | 'code' | 'device'>().notNull(),
    companyId: integer('company_id'),
    codeId: integer('code_id'),
    /** A device's own resources: connection data packs activated on it and not yet used. */
    deviceId: integer('device_id'),
    resourceTypeId: integer('resource_type_id').references(() => resourceTypes.id),
    balance: amount('balance').notNull().default(0),
  },
  (t) => [
    check('ledger_accounts_balance_check', sql`${t.kind} = 'issuer' or ${t.balance} >= 0`),
    uniqueIndex('ledger_accounts_owner_key').on(
      t.kind,
      sql`coalesce(${t.companyId}, 0)`,
      sql`coalesce(${t.codeId}, 0)`,
      sql`coalesce(${t.deviceId}, 0)`,
      sql`coalesce(${t.resourceTypeId}, 0)`,
    ),
  ],
);

/**
 * One movement of resources (the credit history): what happened, between which companies,
 * by whom. Its postings say which accounts changed; they always sum to zero (a deferred
 * trigger checks it at commit).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    action: text('action').notNull(),
    resourceTypeId: integer('resource_type_id').references(() => resourceTypes.id),
    /** Units of the type; bytes for company data. */
    amount: amount('amount').notNull(),
    /** Bytes of company data the entry gave (buying data), beside the credits it took. */
    dataBytes: amount('data_bytes'),
    sourceCompanyId: integer('source_company_id'),
    targetCompanyId: integer('target_company_id'),
    codeId: integer('code_id'),
    /** The device a credit or pack was activated on, or that resources left. */
    deviceId: integer('device_id'),
    /** The device that received a device's resources ('move device resources'). */
    targetDeviceId: integer('target_device_id'),
    creditPrice: numeric('credit_price', { precision: 14, scale: 2 }),
    proFormNr: text('pro_form_nr'),
    comment: text('comment'),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    subjectUserId: integer('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_source_idx').on(t.sourceCompanyId, t.createdAt),
    index('ledger_entries_target_idx').on(t.targetCompanyId, t.createdAt),
    index('ledger_entries_created_idx').on(t.createdAt),
    index('ledger_entries_device_idx').on(t.deviceId, t.createdAt),
  ],
);

/** The accounts an entry changed and by how much (signed; never zero). */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    entryId: integer('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: amount('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.accountId] }),
    index('ledger_postings_account_idx').on(t.accountId),
    check('ledger_postings_amount_check', sql`${t.amount} <> 0`),
  ],
);

/**
 * Transfer codes (product §3 newCode, activateCode; §4 Used / Not Used). The code itself is
 * kept twice and never in the clear: a SHA-256 digest to find it when redeemed, and sealed
 * with the server's key for the issuer's table. Its resources wait in the code's escrow
 * account until it is redeemed or cancelled; `used_at` is set by one conditional UPDATE.
 */
export const transferCodes = pgTable(
  'transfer_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id').notNull(),
    resourceTypeId: integer('resource_type_id')
      .notNull()
      .references(() => resourceTypes.id),
    amount: amount('amount').notNull(),
    comment: text('comment').notNull().default(''),
    codeDigest: text('code_digest').notNull(),
    codeSealed: text('code_sealed').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    usedAt: tz('used_at'),
    usedByCompanyId: integer('used_by_company_id'),
    usedByUserId: integer('used_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: tz('cancelled_at'),
  },
  (t) => [
    uniqueIndex('transfer_codes_digest_key').on(t.codeDigest),
    index('transfer_codes_company_idx').on(t.companyId, t.createdAt),
  ],
);

/** Serials that have had their trial service: a device gets one once, not at every registration. */
export const deviceTrials = pgTable('device_trials', {
  serial: text('serial').primaryKey(),
  startedAt: tz('started_at').notNull().defaultNow(),
});

/**
 * Company data spent, per day, device and purpose (product §2 company.data-history,
 * services.data-history): what remote access and VPN relayed. Rows add up as traffic is
 * metered; the ledger holds the same bytes as 'spend_data' entries.
 */
export const dataUsage = pgTable(
  'data_usage',
  {
    companyId: integer('company_id').notNull(),
    /** Zero when the traffic was no single device's (a VPN hub's own). */
    deviceId: integer('device_id').notNull().default(0),
    day: date('day', { mode: 'string' }).notNull(),
    purpose: text('purpose').$type<'remote_access' | 'vpn'>().notNull(),
    bytes: amount('bytes').notNull().default(0),
    /** Bytes relayed after the company's data had run out (not taken from any balance). */
    unpaidBytes: amount('unpaid_bytes').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.day, t.deviceId, t.purpose] }),
    index('data_usage_device_idx').on(t.deviceId, t.day),
  ],
);

/**
 * Quotas a parent sets on a subsidiary (docs/decisions.md, Resources): how many units of a
 * type the subsidiary's own users may pass on, down its tree or into transfer codes. `moved`
 * counts what they passed on since the quota was set; one conditional UPDATE takes from it.
 */
export const resourceQuotas = pgTable(
  'resource_quotas',
  {
    companyId: integer('company_id').notNull(),
    resourceTypeId: integer('resource_type_id')
      .notNull()
      .references(() => resourceTypes.id),
    cap: amount('cap').notNull(),
    moved: amount('moved').notNull().default(0),
    setBy: integer('set_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.resourceTypeId] }),
    check('resource_quotas_moved_check', sql`${t.moved} <= ${t.cap}`),
  ],
);
