import { randomBytes } from 'node:crypto';
import {
  CREDIT_DATA_BYTES,
  CREDIT_TYPE_IDS,
  formatData,
  isPaidType,
  PACK_TYPE_IDS,
  RESOURCE_TYPES,
  type ResourceType,
  resourceType,
  typeByName,
  typeNameFor,
} from '@fleetgate/shared/resources';
import type {
  ActivateCodeBody,
  BuyDataBody,
  CodeListQuery,
  LedgerAction,
  MovementListQuery,
  MovePoolsBody,
  NewCodeBody,
  NewPoolBody,
  SetQuotaBody,
} from '@fleetgate/shared/schemas/resources';
import { digest } from '#src/auth/tokens';
import type { Db } from '#src/db/database';
import { AppError, badRequest, forbidden, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import { csvLine } from '../devices/csv';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { warnIfLow } from './data-usage.service';
import { type AccountKey, BalanceTooLarge, InsufficientBalance, post } from './ledger.repository';
import { type CodeRow, type MovementRow, resourcesRepository } from './resources.repository';

/** The context the sealed codes are bound to, so a sealed value cannot be moved into another column. */
const CODE_SEAL = 'transfer_code';
/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** One answer for a code that is unknown, used or cancelled, so that guessing learns nothing. */
export const CODE_INVALID = 'The code is invalid or has already been used';

const REPORT_COLUMNS = [
  'date',
  'action',
  'resource_type',
  'amount',
  'data_bytes',
  'from_company',
  'to_company',
  'credit_price',
  'pro_form_nr',
  'comment',
  'user',
];
const REPORT_PAGE = 1000;
/** A report holds at most this many movements; a longer period is asked for in parts. */
const REPORT_ROWS_MAX = 100_000;

/** A move or code that passes a quota its company's parent set. */
class QuotaExceeded extends Error {
  constructor(readonly left: number) {
    super('Quota exceeded');
  }
}

/**
 * Takes from the quota when the caller acts for the company that has one (its parent set it
 * to hold the subsidiary's own users back; the parent and the super admin are not held).
 */
async function takeQuota(ctx: ServiceContext, tx: Db, companyId: number, type: number, amount: number) {
  if (ctx.caller.principal.company.id !== companyId) return;
  const taken = await resourcesRepository.takeQuota(tx, companyId, type, amount);
  if (!taken.ok) throw new QuotaExceeded(taken.left);
}

export const isSuperAdmin = (ctx: ServiceContext) => ctx.caller.principal.permissions.includes('super_admin');

/** 16 characters of 5 bits: 80 bits from the system's random source, grouped in fours. */
export function newTransferCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CODE_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

/** The code as typed: case, spaces and dashes do not matter, and O, I, L read as 0, 1, 1. */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

const codeDigest = (code: string) => digest(`transfer-code:${normaliseCode(code)}`);

function typeOrRefuse(id: number): ResourceType {
  const type = resourceType(id);
  if (!type) throw badRequest('Resource type not found', 'credit_type_id');
  return type;
}

function typeNamed(ctx: ServiceContext, name: string): ResourceType {
  const type = typeByName(name, isSuperAdmin(ctx));
  if (!type) throw badRequest('Resource type not found', 'credit_type_name');
  return type;
}

/** The refusal of a posting that would take a pool below zero, in words and on its field. */
export async function guardBalance<T>(
  ctx: ServiceContext,
  run: () => Promise<T>,
  field = 'amount',
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InsufficientBalance) {
      const name =
        error.account.type === null
          ? 'company data'
          : typeNameFor(resourceType(error.account.type)!, isSuperAdmin(ctx));
      // In a sentence: 'Not enough management pack (3 years)', units such as GB kept as they are.
      const what = name.charAt(0).toLowerCase() + name.slice(1);
      const left = error.account.type === null ? formatData(error.available) : String(error.available);
      throw badRequest(`Not enough ${what}: ${left} left`, field);
    }
    if (error instanceof QuotaExceeded)
      throw badRequest(`Your company’s quota allows passing on ${error.left} more of this type`, field);
    if (error instanceof BalanceTooLarge)
      throw badRequest('The amount is too large for the company’s balance', field);
    throw error;
  }
}

/** Who made a ledger entry: the real person, and the user acted as when impersonating. */
export const ledgerIdentity = (ctx: ServiceContext) => {
  const actor = ctx.caller.actor ?? ctx.caller.principal;
  return { actorUserId: actor.id, subjectUserId: ctx.caller.actor ? ctx.caller.principal.id : null };
};

const company = (companyId: number, type: number | null): AccountKey => ({
  kind: 'company',
  companyId,
  type,
});
const issuer = (type: number | null): AccountKey => ({ kind: 'issuer', type });

/** A movement as the API answers it: the type named as the caller sees it. */
function presentMovement(ctx: ServiceContext, row: MovementRow) {
  const type = row.credit_type === null ? undefined : resourceType(row.credit_type);
  return {
    ...row,
    action: row.action as LedgerAction,
    credit_type_name: type ? typeNameFor(type, isSuperAdmin(ctx)) : null,
  };
}

function presentCode(ctx: ServiceContext, row: CodeRow) {
  const { code_sealed, cancelled_at, ...rest } = row;
  return {
    ...rest,
    code: ctx.secrets.decrypt(code_sealed, CODE_SEAL),
    credit_type_name: typeNameFor(typeOrRefuse(row.credit_type), isSuperAdmin(ctx)),
    used: row.used_at !== null,
    cancelled: cancelled_at !== null,
  };
}

async function reachableCompany(ctx: ServiceContext, id: number, field: string) {
  const found = await companyInScope(ctx.db, scopeOf(ctx.caller), id);
  if (!found) throw AppError.of(404, 'NOT_FOUND', 'Company not found', field);
  return found;
}

/**
 * Resources (product §2 administration.resources, service.add-credits, company resources;
 * §3 newPool, movePools, newCode, activateCode, buyData). Every change is one ledger entry
 * in one transaction with its audit row; every read is scoped to the caller's companies.
 */
export const resourcesService = {
  /** product §6: the super admin sees every type; everyone else the paid ones, without 'Paid'. */
  types(ctx: ServiceContext) {
    const all = isSuperAdmin(ctx);
    return RESOURCE_TYPES.filter((t) => all || t.payment_type === 'paid').map((t) => ({
      ...t,
      name: typeNameFor(t, all),
    }));
  },

  async movements(ctx: ServiceContext, query: MovementListQuery) {
    const { company_id, device_id, credit_type, action, from, to, ...list } = query;
    const { rows, total, fields } = await resourcesRepository.movements(
      ctx.db,
      scopeOf(ctx.caller),
      list as ListQuery,
      {
        companyId: company_id,
        deviceId: device_id,
        creditType: credit_type,
        action,
        from,
        to,
      },
    );
    return { rows: rows.map((r) => presentMovement(ctx, r)), total, fields };
  },

  /** The 'credit report' (product §2 dialog): every movement of the period the caller may read, oldest first, as CSV. */
  async *report(ctx: ServiceContext, filters: Pick<MovementListQuery, 'company_id' | 'from' | 'to'>) {
    yield csvLine(REPORT_COLUMNS);
    const scope = scopeOf(ctx.caller);
    for (let offset = 0; offset < REPORT_ROWS_MAX; offset += REPORT_PAGE) {
      const { rows } = await resourcesRepository.movements(
        ctx.db,
        scope,
        { sort: 'created_at', limit: REPORT_PAGE, offset },
        { companyId: filters.company_id, from: filters.from, to: filters.to },
      );
      for (const row of rows) {
        const m = presentMovement(ctx, row);
        yield csvLine([
          m.created_at,
          m.action,
          m.credit_type_name,
          m.amount,
          m.data_bytes,
          m.source_company_name,
          m.target_company_name,
          m.credit_price,
          m.pro_form_nr,
          m.comment,
          m.user_email,
        ]);
      }
      if (rows.length < REPORT_PAGE) return;
    }
  },

  async movement(ctx: ServiceContext, id: number) {
    return presentMovement(ctx, await resourcesRepository.movement(ctx.db, scopeOf(ctx.caller), id));
  },

  /** newPool: the super admin issues resources to a company; paid types carry a price and a pro-forma number. */
  async createPool(ctx: ServiceContext, input: NewPoolBody) {
    const type = typeOrRefuse(input.credit_type_id);
    if (isPaidType(type.id)) {
      if (input.credit_price === undefined) throw badRequest('Credit price is required', 'credit_price');
      if (!input.pro_form_nr) throw badRequest('Pro-forma number is required', 'pro_form_nr');
    }
    const target = await reachableCompany(ctx, input.company_id, 'company_id');
    const paid = isPaidType(type.id);
    const id = await guardBalance(
      ctx,
      () =>
        audited(
          ctx.db,
          (tx) =>
            post(
              tx,
              {
                action: 'pool',
                resourceTypeId: type.id,
                amount: input.credit_count,
                targetCompanyId: target.id,
                creditPrice: paid ? input.credit_price : null,
                proFormNr: paid ? input.pro_form_nr : null,
                ...ledgerIdentity(ctx),
              },
              [
                { account: issuer(type.id), amount: -input.credit_count },
                { account: company(target.id, type.id), amount: input.credit_count },
              ],
            ),
          (entryId) =>
            callerAudit(ctx, {
              action: 'resources.pool',
              companyId: target.id,
              targetType: 'ledger_entry',
              targetId: entryId,
              details: {
                credit_type: type.id,
                amount: input.credit_count,
                credit_price: input.credit_price ?? null,
              },
            }),
        ),
      'credit_count',
    );
    return this.movement(ctx, id);
  },

  /** movePools: between two companies the caller reaches, never below zero. */
  async move(ctx: ServiceContext, input: MovePoolsBody) {
    const type = typeNamed(ctx, input.credit_type_name);
    if (input.source === input.target)
      throw badRequest('Source and target must be different companies', 'target');
    const from = await reachableCompany(ctx, input.source, 'source');
    const to = await reachableCompany(ctx, input.target, 'target');
    const id = await guardBalance(ctx, () =>
      audited(
        ctx.db,
        async (tx) => {
          if (to.path.startsWith(from.path)) await takeQuota(ctx, tx, from.id, type.id, input.amount);
          return post(
            tx,
            {
              action: 'move',
              resourceTypeId: type.id,
              amount: input.amount,
              sourceCompanyId: from.id,
              targetCompanyId: to.id,
              ...ledgerIdentity(ctx),
            },
            [
              { account: company(from.id, type.id), amount: -input.amount },
              { account: company(to.id, type.id), amount: input.amount },
            ],
          );
        },
        (entryId) =>
          callerAudit(ctx, {
            action: 'resources.move',
            companyId: from.id,
            targetType: 'ledger_entry',
            targetId: entryId,
            details: { credit_type: type.id, amount: input.amount, target: to.id },
          }),
      ),
    );
    await warnIfLow(ctx, from.id);
    return this.movement(ctx, id);
  },

  /** A company's balances (product §3 Company: credits_left, packs_left, remaining_data). */
  async balances(ctx: ServiceContext, companyId: number) {
    const found = await companyInScope(ctx.db, scopeOf(ctx.caller), companyId);
    if (!found) throw notFound('Company');
    return (await balancesOf(ctx, [found.id])).get(found.id)!;
  },

  /** product §7 GET /credits/summary: the caller's company's resources, type by type. */
  async summary(ctx: ServiceContext) {
    const own = (await balancesOf(ctx, [ctx.caller.principal.company.id])).get(
      ctx.caller.principal.company.id,
    )!;
    return {
      credits: {
        left: own.per_type.map((b) => ({
          credit_type: b.credit_type,
          credit_type_name: b.credit_type_name,
          credits_left: b.left,
        })),
      },
    };
  },

  async codes(ctx: ServiceContext, query: CodeListQuery) {
    const { company_id, used, ...list } = query;
    const { rows, total, fields } = await resourcesRepository.codes(
      ctx.db,
      scopeOf(ctx.caller),
      list as ListQuery,
      {
        companyId: company_id,
        used: used === undefined ? undefined : used === 'true',
      },
    );
    return { rows: rows.map((r) => presentCode(ctx, r)), total, fields };
  },

  async code(ctx: ServiceContext, id: number) {
    const row = await resourcesRepository.code(ctx.db, scopeOf(ctx.caller), id);
    if (!row) throw notFound('Code');
    return presentCode(ctx, row);
  },

  /** newCode: the resources leave the company's pool for the code's escrow until it is redeemed or cancelled. */
  async createCode(ctx: ServiceContext, input: NewCodeBody) {
    const type = typeNamed(ctx, input.credit_type_name);
    if (input.company_id !== undefined && !isSuperAdmin(ctx))
      throw forbidden('Only the system administrator may choose the company a code comes from');
    const from = await reachableCompany(
      ctx,
      input.company_id ?? ctx.caller.principal.company.id,
      'company_id',
    );
    const code = newTransferCode();
    const id = await guardBalance(ctx, () =>
      audited(
        ctx.db,
        async (tx) => {
          await takeQuota(ctx, tx, from.id, type.id, input.amount);
          const codeId = await resourcesRepository.insertCode(tx, {
            companyId: from.id,
            resourceTypeId: type.id,
            amount: input.amount,
            comment: input.comment,
            codeDigest: codeDigest(code),
            codeSealed: ctx.secrets.encrypt(code, CODE_SEAL),
            createdBy: ledgerIdentity(ctx).actorUserId,
          });
          await post(
            tx,
            {
              action: 'code_create',
              resourceTypeId: type.id,
              amount: input.amount,
              sourceCompanyId: from.id,
              codeId,
              comment: input.comment || null,
              ...ledgerIdentity(ctx),
            },
            [
              { account: company(from.id, type.id), amount: -input.amount },
              { account: { kind: 'code', codeId, type: type.id }, amount: input.amount },
            ],
          );
          return codeId;
        },
        (codeId) =>
          callerAudit(ctx, {
            action: 'resources.code_create',
            companyId: from.id,
            targetType: 'transfer_code',
            targetId: codeId,
            details: { credit_type: type.id, amount: input.amount },
          }),
      ),
    );
    await warnIfLow(ctx, from.id);
    return this.code(ctx, id);
  },

  /** Cancels an unused code of the caller's companies; its resources go back to the issuing company. */
  async cancelCode(ctx: ServiceContext, id: number) {
    const existing = await this.code(ctx, id);
    const cancelled = await audited(
      ctx.db,
      async (tx) => {
        const row = await resourcesRepository.cancelCode(tx, id);
        if (!row) return null;
        await post(
          tx,
          {
            action: 'code_cancel',
            resourceTypeId: row.resourceTypeId,
            amount: row.amount,
            targetCompanyId: row.companyId,
            codeId: row.id,
            ...ledgerIdentity(ctx),
          },
          [
            { account: { kind: 'code', codeId: row.id, type: row.resourceTypeId }, amount: -row.amount },
            { account: company(row.companyId, row.resourceTypeId), amount: row.amount },
          ],
        );
        return row;
      },
      (row) =>
        row &&
        callerAudit(ctx, {
          action: 'resources.code_cancel',
          companyId: row.companyId,
          targetType: 'transfer_code',
          targetId: row.id,
        }),
    );
    if (!cancelled)
      throw badRequest(
        existing.used ? 'The code has already been used' : 'The code has already been cancelled',
      );
    return this.code(ctx, id);
  },

  /**
   * activateCode: the code's resources move from its escrow to the caller's company. A code
   * that is unknown, used or cancelled answers the same words, and the route limits tries
   * per user and address, so codes cannot be found by guessing.
   */
  async redeem(ctx: ServiceContext, input: ActivateCodeBody) {
    const companyId = ctx.caller.principal.company.id;
    const key = codeDigest(input.code);
    const claimed = await audited(
      ctx.db,
      async (tx) => {
        const row = await resourcesRepository.claimCode(tx, key, companyId, ctx.caller.principal.id);
        if (!row) return null;
        await post(
          tx,
          {
            action: 'code_redeem',
            resourceTypeId: row.resourceTypeId,
            amount: row.amount,
            sourceCompanyId: row.companyId,
            targetCompanyId: companyId,
            codeId: row.id,
            ...ledgerIdentity(ctx),
          },
          [
            { account: { kind: 'code', codeId: row.id, type: row.resourceTypeId }, amount: -row.amount },
            { account: company(companyId, row.resourceTypeId), amount: row.amount },
          ],
        );
        return row;
      },
      (row) =>
        row &&
        callerAudit(ctx, {
          action: 'resources.code_redeem',
          companyId,
          targetType: 'transfer_code',
          targetId: row.id,
          details: { credit_type: row.resourceTypeId, amount: row.amount },
        }),
    );
    if (!claimed) {
      if (await resourcesRepository.isOwnOpenCode(ctx.db, key, companyId))
        throw badRequest('A code cannot be activated by the company that created it', 'code');
      throw badRequest(CODE_INVALID, 'code');
    }
    const type = typeOrRefuse(claimed.resourceTypeId);
    return {
      company_id: companyId,
      credit_type: type.id,
      credit_type_name: typeNameFor(type, isSuperAdmin(ctx)),
      amount: claimed.amount,
    };
  },

  /** The quotas set on a company the caller reaches. */
  async quotas(ctx: ServiceContext, companyId: number) {
    const found = await companyInScope(ctx.db, scopeOf(ctx.caller), companyId);
    if (!found) throw notFound('Company');
    const rows = await resourcesRepository.quotas(ctx.db, found.id);
    return rows.map((q) => ({
      credit_type: q.type,
      credit_type_name: typeNameFor(typeOrRefuse(q.type), isSuperAdmin(ctx)),
      cap: q.cap,
      moved: q.moved,
      left: q.cap - q.moved,
    }));
  },

  /**
   * Sets how many units of a type a subsidiary's own users may pass on from now on, or removes
   * the quota. Only from above: the caller's company must be an ancestor of the company.
   */
  async setQuota(ctx: ServiceContext, companyId: number, input: SetQuotaBody) {
    const target = await reachableCompany(ctx, companyId, 'company_id');
    if (target.id === ctx.caller.principal.company.id)
      throw forbidden('A quota is set by a parent company, not by the company itself');
    const type = typeNamed(ctx, input.credit_type_name);
    await audited(
      ctx.db,
      (tx) =>
        resourcesRepository.setQuota(tx, target.id, type.id, input.cap, ledgerIdentity(ctx).actorUserId),
      () =>
        callerAudit(ctx, {
          action: 'resources.quota',
          companyId: target.id,
          targetType: 'company',
          targetId: target.id,
          details: { credit_type: type.id, cap: input.cap },
        }),
    );
    return this.quotas(ctx, target.id);
  },

  /**
   * buyData (product §3, §9): credits become company data, 2 GB each. Free credits are spent
   * first, then paid ones, one entry per kind, all in one transaction.
   */
  async buyData(ctx: ServiceContext, input: BuyDataBody) {
    const target = await reachableCompany(ctx, input.company_id, 'company_id');
    const held = (await balancesOf(ctx, [target.id])).get(target.id)!;
    const perType = new Map(held.per_type.map((b) => [b.credit_type, b.left]));
    const available = CREDIT_TYPE_IDS.reduce((sum, id) => sum + (perType.get(id) ?? 0), 0);
    if (input.credits > available) throw badRequest(`Not enough credits: ${available} left`, 'credits');
    if (input.credits * CREDIT_DATA_BYTES > Number.MAX_SAFE_INTEGER)
      throw badRequest('The amount is too large for the company’s balance', 'credits');
    let due = input.credits;
    const spend = CREDIT_TYPE_IDS.map((id) => {
      const take = Math.min(due, perType.get(id) ?? 0);
      due -= take;
      return { id, take };
    }).filter((s) => s.take > 0);
    await guardBalance(
      ctx,
      () =>
        audited(
          ctx.db,
          async (tx) => {
            const ids: number[] = [];
            for (const { id, take } of spend) {
              const bytes = take * CREDIT_DATA_BYTES;
              ids.push(
                await post(
                  tx,
                  {
                    action: 'buy_data',
                    resourceTypeId: id,
                    amount: take,
                    dataBytes: bytes,
                    sourceCompanyId: target.id,
                    targetCompanyId: target.id,
                    ...ledgerIdentity(ctx),
                  },
                  [
                    { account: company(target.id, id), amount: -take },
                    { account: issuer(id), amount: take },
                    { account: issuer(null), amount: -bytes },
                    { account: company(target.id, null), amount: bytes },
                  ],
                ),
              );
            }
            return ids;
          },
          (ids) =>
            callerAudit(ctx, {
              action: 'resources.buy_data',
              companyId: target.id,
              targetType: 'ledger_entry',
              targetId: ids.join(','),
              details: { credits: input.credits, data_bytes: input.credits * CREDIT_DATA_BYTES },
            }),
        ),
      'credits',
    );
    await warnIfLow(ctx, target.id);
    const after = (await balancesOf(ctx, [target.id])).get(target.id)!;
    return {
      company_id: target.id,
      credits: input.credits,
      data_bytes: input.credits * CREDIT_DATA_BYTES,
      remaining_data: after.remaining_data,
    };
  },
};

/** Balances per company: credits, packs and data (product §3 Company) and each type's count. */
export async function balancesOf(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyIds: number[]) {
  const rows = await resourcesRepository.balancesOf(ctx.db, companyIds);
  const superAdmin = ctx.caller.principal.permissions.includes('super_admin');
  const out = new Map(
    companyIds.map((id) => [
      id,
      {
        company_id: id,
        credits_left: 0,
        packs_left: 0,
        remaining_data: 0,
        per_type: [] as { credit_type: number; credit_type_name: string; left: number }[],
      },
    ]),
  );
  for (const row of rows) {
    const entry = out.get(row.companyId!);
    if (!entry) continue;
    if (row.type === null) {
      entry.remaining_data = row.balance;
      continue;
    }
    if (CREDIT_TYPE_IDS.includes(row.type)) entry.credits_left += row.balance;
    if (PACK_TYPE_IDS.includes(row.type)) entry.packs_left += row.balance;
    const type = resourceType(row.type);
    if (type && row.balance > 0)
      entry.per_type.push({
        credit_type: type.id,
        credit_type_name: typeNameFor(type, superAdmin),
        left: row.balance,
      });
  }
  for (const entry of out.values()) entry.per_type.sort((a, b) => a.credit_type - b.credit_type);
  return out;
}
