import type { LedgerAction } from '@fleetgate/shared/schemas/resources';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from '#src/db/schema/resources';

/**
 * The ledger (ARCHITECTURE §8 Resources): the one writer of balances. Every movement is an
 * entry whose postings sum to zero; an account's balance changes only here, in the same
 * transaction as its posting, and never below zero but for the issuer's.
 */

/** An account by its owner: the issuer, a company's pool or a transfer code's escrow. `type` null: company data in bytes. */
export type AccountKey =
  | { kind: 'issuer'; type: number | null }
  | { kind: 'company'; companyId: number; type: number | null }
  | { kind: 'code'; codeId: number; type: number }
  | { kind: 'device'; deviceId: number; type: number };

export type Posting = { account: AccountKey; amount: number };

export type EntryInput = {
  action: LedgerAction;
  resourceTypeId: number | null;
  amount: number;
  dataBytes?: number | null;
  sourceCompanyId?: number | null;
  targetCompanyId?: number | null;
  codeId?: number | null;
  deviceId?: number | null;
  targetDeviceId?: number | null;
  creditPrice?: string | null;
  proFormNr?: string | null;
  comment?: string | null;
  actorUserId?: number | null;
  subjectUserId?: number | null;
};

/** A posting that would take an account below zero. */
export class InsufficientBalance extends Error {
  constructor(
    readonly account: AccountKey,
    readonly available: number,
  ) {
    super('Insufficient balance');
  }
}

/** A posting that would take a balance past what a count can hold exactly (2⁵³ − 1). */
export class BalanceTooLarge extends Error {
  constructor(readonly account: AccountKey) {
    super('Balance too large');
  }
}

const keyOf = (key: AccountKey) => ({
  kind: key.kind,
  companyId: key.kind === 'company' ? key.companyId : null,
  codeId: key.kind === 'code' ? key.codeId : null,
  deviceId: key.kind === 'device' ? key.deviceId : null,
  resourceTypeId: key.type,
});

const whereKey = (key: AccountKey) => {
  const k = keyOf(key);
  return and(
    eq(ledgerAccounts.kind, k.kind),
    k.companyId === null ? isNull(ledgerAccounts.companyId) : eq(ledgerAccounts.companyId, k.companyId),
    k.codeId === null ? isNull(ledgerAccounts.codeId) : eq(ledgerAccounts.codeId, k.codeId),
    k.deviceId === null ? isNull(ledgerAccounts.deviceId) : eq(ledgerAccounts.deviceId, k.deviceId),
    k.resourceTypeId === null
      ? isNull(ledgerAccounts.resourceTypeId)
      : eq(ledgerAccounts.resourceTypeId, k.resourceTypeId),
  );
};

/** The account's id, created empty the first time it is named. */
async function accountId(tx: Db, key: AccountKey): Promise<number> {
  const [found] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(whereKey(key))
    .limit(1);
  if (found) return found.id;
  await tx.insert(ledgerAccounts).values(keyOf(key)).onConflictDoNothing();
  const [made] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(whereKey(key))
    .limit(1);
  return made!.id;
}

/**
 * Records one balanced entry. Runs inside the caller's transaction: the accounts are locked
 * in id order (so two moves in opposite directions cannot deadlock), every debit is checked
 * against the locked balance, then balances, entry and postings are written. Throws
 * InsufficientBalance, changing nothing, when an account other than the issuer's would go
 * below zero.
 */
export async function post(tx: Db, entry: EntryInput, postings: Posting[]): Promise<number> {
  const total = postings.reduce((sum, p) => sum + p.amount, 0);
  if (total !== 0 || postings.some((p) => !Number.isSafeInteger(p.amount) || p.amount === 0))
    throw new Error(`unbalanced or invalid postings for ${entry.action}`);
  // One statement at a time: a transaction is one connection.
  const ids: number[] = [];
  for (const p of postings) ids.push(await accountId(tx, p.account));
  const locked = await tx
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, ids))
    .orderBy(ledgerAccounts.id)
    .for('update');
  const byId = new Map(locked.map((a) => [a.id, a]));
  postings.forEach((p, i) => {
    const account = byId.get(ids[i]!)!;
    if (account.kind !== 'issuer' && account.balance + p.amount < 0)
      throw new InsufficientBalance(p.account, account.balance);
    if (account.balance + p.amount > Number.MAX_SAFE_INTEGER) throw new BalanceTooLarge(p.account);
  });
  for (const [i, p] of postings.entries())
    await tx
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + ${p.amount}` })
      .where(eq(ledgerAccounts.id, ids[i]!));
  const [row] = await tx.insert(ledgerEntries).values(entry).returning({ id: ledgerEntries.id });
  await tx
    .insert(ledgerPostings)
    .values(postings.map((p, i) => ({ entryId: row!.id, accountId: ids[i]!, amount: p.amount })));
  return row!.id;
}

/** Locks the account for the rest of the transaction and answers its balance. */
export async function lockedBalance(tx: Db, key: AccountKey): Promise<number> {
  const id = await accountId(tx, key);
  const [row] = await tx
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, id))
    .for('update');
  return row!.balance;
}
