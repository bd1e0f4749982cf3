import type { LedgerAction } from '@fleetgate/shared/schemas/resources';
import { and, count, eq, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerPostings,
  resourceQuotas,
  transferCodes,
} from '#src/db/schema/resources';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companiesInScope, companyColumnInScope } from '../policy/scope.repository';

const source = alias(companies, 'source_company');
const target = alias(companies, 'target_company');
const actor = alias(users, 'actor');

/** A company's name when the caller reaches it; null otherwise, so no tenant learns another's names. */
const nameInScope = (table: { id: AnyPgColumn; path: AnyPgColumn; name: AnyPgColumn }, scope: Scope) =>
  sql<
    string | null
  >`case when ${scope.subtree ? sql`${table.path} like ${`${scope.path}%`}` : sql`${table.id} = ${scope.companyId}`} then ${table.name} end`;

type MovementField = 'id' | 'action' | 'credit_type' | 'amount' | 'comment' | 'pro_form_nr' | 'created_at';

const movementListSpec: ListSpec<MovementField> = {
  columns: {
    id: ledgerEntries.id,
    action: ledgerEntries.action,
    credit_type: ledgerEntries.resourceTypeId,
    amount: ledgerEntries.amount,
    comment: ledgerEntries.comment,
    pro_form_nr: ledgerEntries.proFormNr,
    created_at: ledgerEntries.createdAt,
  },
  sortable: ['id', 'action', 'credit_type', 'amount', 'created_at'],
  searchable: ['comment', 'pro_form_nr'],
  defaultSearch: ['comment', 'pro_form_nr'],
  defaultSort: '-created_at',
  idColumn: ledgerEntries.id,
};

export type MovementFilters = {
  companyId?: number[];
  deviceId?: number;
  creditType?: number[];
  action?: LedgerAction[];
  from?: Date;
  to?: Date;
};

const movementRow = (scope: Scope) => ({
  id: ledgerEntries.id,
  action: ledgerEntries.action,
  credit_type: ledgerEntries.resourceTypeId,
  amount: ledgerEntries.amount,
  data_bytes: ledgerEntries.dataBytes,
  source_company_id: ledgerEntries.sourceCompanyId,
  source_company_name: nameInScope(source, scope),
  target_company_id: ledgerEntries.targetCompanyId,
  target_company_name: nameInScope(target, scope),
  credit_price: ledgerEntries.creditPrice,
  pro_form_nr: ledgerEntries.proFormNr,
  comment: ledgerEntries.comment,
  code_id: ledgerEntries.codeId,
  device_id: ledgerEntries.deviceId,
  target_device_id: ledgerEntries.targetDeviceId,
  user_email: actor.email,
  created_at: ledgerEntries.createdAt,
});
export type MovementRow = Awaited<ReturnType<typeof resourcesRepository.movement>>;

/** Movements the caller may read: those that took from or gave to one of its companies. */
const movementsInScope = (scope: Scope) =>
  scope.everything
    ? undefined
    : or(
        companyColumnInScope(ledgerEntries.sourceCompanyId, scope),
        companyColumnInScope(ledgerEntries.targetCompanyId, scope),
      );

type CodeField = 'id' | 'amount' | 'comment' | 'company_name' | 'credit_type' | 'created_at' | 'used_at';

const codeListSpec: ListSpec<CodeField> = {
  columns: {
    id: transferCodes.id,
    amount: transferCodes.amount,
    comment: transferCodes.comment,
    company_name: companies.name,
    credit_type: transferCodes.resourceTypeId,
    created_at: transferCodes.createdAt,
    used_at: transferCodes.usedAt,
  },
  sortable: ['id', 'amount', 'company_name', 'credit_type', 'created_at', 'used_at'],
  searchable: ['comment', 'company_name'],
  defaultSearch: ['comment'],
  defaultSort: '-created_at',
  idColumn: transferCodes.id,
};

const creator = alias(users, 'creator');

const codeRow = {
  id: transferCodes.id,
  code_sealed: transferCodes.codeSealed,
  company_id: transferCodes.companyId,
  company_name: companies.name,
  credit_type: transferCodes.resourceTypeId,
  amount: transferCodes.amount,
  comment: transferCodes.comment,
  used_at: transferCodes.usedAt,
  cancelled_at: transferCodes.cancelledAt,
  created_by: creator.email,
  created_at: transferCodes.createdAt,
};
export type CodeRow = NonNullable<Awaited<ReturnType<typeof resourcesRepository.code>>>;

export type CodeFilters = { companyId?: number[]; used?: boolean };

/** Only this file and the ledger read and write resources. */
export const resourcesRepository = {
  async movements(db: Db, scope: Scope, query: ListQuery, filters: MovementFilters) {
    const plan = listPlan(movementListSpec, query);
    const where = allOf(
      movementsInScope(scope),
      plan.search,
      filters.companyId?.length
        ? or(
            inArray(ledgerEntries.sourceCompanyId, filters.companyId),
            inArray(ledgerEntries.targetCompanyId, filters.companyId),
          )
        : undefined,
      filters.deviceId
        ? or(eq(ledgerEntries.deviceId, filters.deviceId), eq(ledgerEntries.targetDeviceId, filters.deviceId))
        : undefined,
      filters.creditType?.length ? inArray(ledgerEntries.resourceTypeId, filters.creditType) : undefined,
      filters.action?.length ? inArray(ledgerEntries.action, filters.action) : undefined,
      filters.from ? gte(ledgerEntries.createdAt, filters.from) : undefined,
      filters.to ? lt(ledgerEntries.createdAt, filters.to) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(movementRow(scope))
        .from(ledgerEntries)
        .leftJoin(source, eq(source.id, ledgerEntries.sourceCompanyId))
        .leftJoin(target, eq(target.id, ledgerEntries.targetCompanyId))
        .leftJoin(actor, eq(actor.id, ledgerEntries.actorUserId))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(ledgerEntries).where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  async movement(db: Db, scope: Scope, id: number) {
    const [row] = await db
      .select(movementRow(scope))
      .from(ledgerEntries)
      .leftJoin(source, eq(source.id, ledgerEntries.sourceCompanyId))
      .leftJoin(target, eq(target.id, ledgerEntries.targetCompanyId))
      .leftJoin(actor, eq(actor.id, ledgerEntries.actorUserId))
      .where(eq(ledgerEntries.id, id));
    return row!;
  },

  async codes(db: Db, scope: Scope, query: ListQuery, filters: CodeFilters) {
    const plan = listPlan(codeListSpec, query);
    const where = allOf(
      companyColumnInScope(transferCodes.companyId, scope),
      plan.search,
      filters.companyId?.length ? inArray(transferCodes.companyId, filters.companyId) : undefined,
      filters.used === undefined
        ? undefined
        : filters.used
          ? sql`${transferCodes.usedAt} is not null`
          : and(isNull(transferCodes.usedAt), isNull(transferCodes.cancelledAt)),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(codeRow)
        .from(transferCodes)
        .innerJoin(companies, eq(companies.id, transferCodes.companyId))
        .leftJoin(creator, eq(creator.id, transferCodes.createdBy))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db
        .select({ n: count() })
        .from(transferCodes)
        .innerJoin(companies, eq(companies.id, transferCodes.companyId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  /** One code of the caller's companies, or undefined (another tenant's code is not found). */
  async code(db: Db, scope: Scope, id: number) {
    const [row] = await db
      .select(codeRow)
      .from(transferCodes)
      .innerJoin(companies, eq(companies.id, transferCodes.companyId))
      .leftJoin(creator, eq(creator.id, transferCodes.createdBy))
      .where(and(eq(transferCodes.id, id), companiesInScope(scope)));
    return row;
  },

  async insertCode(tx: Db, values: typeof transferCodes.$inferInsert) {
    const [row] = await tx.insert(transferCodes).values(values).returning({ id: transferCodes.id });
    return row!.id;
  },

  /** Marks the unused code with this digest as used by a company other than its issuer's: one conditional UPDATE, so one redemption wins any race. */
  async claimCode(tx: Db, digest: string, companyId: number, userId: number) {
    const [row] = await tx
      .update(transferCodes)
      .set({ usedAt: new Date(), usedByCompanyId: companyId, usedByUserId: userId })
      .where(
        and(
          eq(transferCodes.codeDigest, digest),
          isNull(transferCodes.usedAt),
          isNull(transferCodes.cancelledAt),
          ne(transferCodes.companyId, companyId),
        ),
      )
      .returning();
    return row;
  },

  /** Whether the digest is an open code of this company (redeeming it there is refused with its own words). */
  async isOwnOpenCode(db: Db, digest: string, companyId: number) {
    const [row] = await db
      .select({ id: transferCodes.id })
      .from(transferCodes)
      .where(
        and(
          eq(transferCodes.codeDigest, digest),
          eq(transferCodes.companyId, companyId),
          isNull(transferCodes.usedAt),
          isNull(transferCodes.cancelledAt),
        ),
      );
    return row !== undefined;
  },

  /** Cancels an unused code: one conditional UPDATE, so a redemption and a cancel cannot both win. */
  async cancelCode(tx: Db, id: number) {
    const [row] = await tx
      .update(transferCodes)
      .set({ cancelledAt: new Date() })
      .where(and(eq(transferCodes.id, id), isNull(transferCodes.usedAt), isNull(transferCodes.cancelledAt)))
      .returning();
    return row;
  },

  /** Balances of the given companies' accounts, for the company fields of product §3. */
  async balancesOf(db: Db, companyIds: number[]) {
    if (!companyIds.length) return [];
    return db
      .select({
        companyId: ledgerAccounts.companyId,
        type: ledgerAccounts.resourceTypeId,
        balance: ledgerAccounts.balance,
      })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'company'), inArray(ledgerAccounts.companyId, companyIds)));
  },

  /** The quotas set on a company, type by type. */
  quotas(db: Db, companyId: number) {
    return db
      .select({ type: resourceQuotas.resourceTypeId, cap: resourceQuotas.cap, moved: resourceQuotas.moved })
      .from(resourceQuotas)
      .where(eq(resourceQuotas.companyId, companyId))
      .orderBy(resourceQuotas.resourceTypeId);
  },

  /** Sets a quota anew (what was passed on before no longer counts), or removes it (null). */
  async setQuota(tx: Db, companyId: number, type: number, cap: number | null, setBy: number) {
    if (cap === null) {
      await tx
        .delete(resourceQuotas)
        .where(and(eq(resourceQuotas.companyId, companyId), eq(resourceQuotas.resourceTypeId, type)));
      return;
    }
    const row = { cap, moved: 0, setBy, updatedAt: new Date() };
    await tx
      .insert(resourceQuotas)
      .values({ companyId, resourceTypeId: type, ...row })
      .onConflictDoUpdate({ target: [resourceQuotas.companyId, resourceQuotas.resourceTypeId], set: row });
  },

  /**
   * Takes `amount` from the company's quota of the type, if it has one: one conditional
   * UPDATE, so racing moves cannot pass the cap together. Answers what was left when it would.
   */
  async takeQuota(
    tx: Db,
    companyId: number,
    type: number,
    amount: number,
  ): Promise<{ ok: true } | { ok: false; left: number }> {
    const [taken] = await tx
      .update(resourceQuotas)
      .set({ moved: sql`${resourceQuotas.moved} + ${amount}` })
      .where(
        and(
          eq(resourceQuotas.companyId, companyId),
          eq(resourceQuotas.resourceTypeId, type),
          sql`${resourceQuotas.moved} + ${amount} <= ${resourceQuotas.cap}`,
        ),
      )
      .returning({ moved: resourceQuotas.moved });
    if (taken) return { ok: true };
    const [quota] = await tx
      .select({ cap: resourceQuotas.cap, moved: resourceQuotas.moved })
      .from(resourceQuotas)
      .where(and(eq(resourceQuotas.companyId, companyId), eq(resourceQuotas.resourceTypeId, type)));
    return quota ? { ok: false, left: quota.cap - quota.moved } : { ok: true };
  },

  /** A device's own resources (connection data packs not used yet), type by type. */
  async deviceBalances(db: Db, deviceId: number) {
    return db
      .select({ type: ledgerAccounts.resourceTypeId, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'device'), eq(ledgerAccounts.deviceId, deviceId)));
  },

  /** An entry that moves no resource units (days of service between devices): history only. */
  async recordEntry(tx: Db, entry: typeof ledgerEntries.$inferInsert) {
    const [row] = await tx.insert(ledgerEntries).values(entry).returning({ id: ledgerEntries.id });
    return row!.id;
  },

  /** Every account whose cached balance differs from the sum of its postings (the ledger's self-check). */
  async driftedAccounts(db: Db) {
    return db
      .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(
        sql`ledger_accounts.balance <> coalesce((select sum(p.amount) from ledger_postings p where p.account_id = ledger_accounts.id), 0)`,
      );
  },

  /** Entries whose postings do not sum to zero (none, if the deferred trigger holds). */
  async unbalancedEntries(db: Db) {
    const rows = await db
      .select({ id: ledgerPostings.entryId })
      .from(ledgerPostings)
      .groupBy(ledgerPostings.entryId)
      .having(sql`sum(${ledgerPostings.amount}) <> 0`);
    return rows.map((r) => r.id);
  },
};
