import { CREDIT_TYPE_IDS, formatData, GB } from '@fleetgate/shared/resources';
import type { DataHistoryQuery, DataPurpose } from '@fleetgate/shared/schemas/resources';
import type { Db } from '#src/db/database';
import type { Notifier } from '../notifications/notifier';
import { scopeOf } from '../policy/scope';
import type { ServiceContext } from '../service-context';
import { dataUsageRepository } from './data-usage.repository';
import { lockedBalance, post } from './ledger.repository';
import { resourcesRepository } from './resources.repository';

/** Below these a company's users are told (product §4 creditAmountTooLow), once a day each. */
export const LOW_CREDITS = 5;
export const LOW_DATA_BYTES = GB;
/** The pace the forecast follows: the last 30 days. */
const PACE_DAYS = 30;
const DAY_MS = 86_400_000;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export type Spend = {
  companyId: number;
  /** The device whose traffic it was; none for traffic of no single device. */
  deviceId?: number;
  purpose: DataPurpose;
  bytes: number;
  at?: Date;
};

/**
 * Spends company data on relayed traffic: what remote access and VPN call as they meter
 * bytes. The traffic has already happened, so it is always recorded; what the company's
 * data covers is taken from it (a 'spend_data' entry) and the rest is kept as unpaid on the
 * day's row. New sessions check `remaining` first and are refused once it is zero.
 */
export async function spendData(deps: { db: Db; notifications: Notifier }, spend: Spend) {
  if (!Number.isSafeInteger(spend.bytes) || spend.bytes <= 0)
    throw new Error('Spent bytes must be a positive whole number');
  const result = await deps.db.transaction(async (tx) => {
    const balance = await lockedBalance(tx, { kind: 'company', companyId: spend.companyId, type: null });
    const charged = Math.min(balance, spend.bytes);
    if (charged > 0)
      await post(
        tx,
        {
          action: 'spend_data',
          resourceTypeId: null,
          amount: charged,
          dataBytes: charged,
          sourceCompanyId: spend.companyId,
          deviceId: spend.deviceId ?? null,
        },
        [
          { account: { kind: 'company', companyId: spend.companyId, type: null }, amount: -charged },
          { account: { kind: 'issuer', type: null }, amount: charged },
        ],
      );
    await dataUsageRepository.add(tx, {
      companyId: spend.companyId,
      deviceId: spend.deviceId ?? 0,
      day: dayOf(spend.at ?? new Date()),
      purpose: spend.purpose,
      bytes: spend.bytes,
      unpaidBytes: spend.bytes - charged,
    });
    return { charged, unpaid: spend.bytes - charged, remaining: balance - charged };
  });
  await warnIfLow(deps, spend.companyId);
  return result;
}

/**
 * Tells the company's users when its credits or data have fallen below the mark (product §4
 * creditAmountTooLow; the console adds 'Get more resources'). Called after anything takes
 * from a company; at most once a day per company and kind.
 */
export async function warnIfLow(deps: { db: Db; notifications: Notifier }, companyId: number) {
  const rows = await resourcesRepository.balancesOf(deps.db, [companyId]);
  const credits = rows
    .filter((r) => r.type !== null && CREDIT_TYPE_IDS.includes(r.type))
    .reduce((s, r) => s + r.balance, 0);
  const data = rows.find((r) => r.type === null)?.balance ?? 0;
  const today = dayOf(new Date());
  const users = await dataUsageRepository.usersOf(deps.db, companyId);
  if (!users.length) return;
  if (credits < LOW_CREDITS)
    await deps.notifications.notify(users, {
      type: 'creditAmountTooLow',
      summary: `Credits are running low: ${credits} left`,
      data: { company_id: companyId, credits_left: credits },
      once: `credits-low:${companyId}:${today}`,
    });
  if (data < LOW_DATA_BYTES)
    await deps.notifications.notify(users, {
      type: 'creditAmountTooLow',
      summary: `Company data is running low: ${formatData(data)} left`,
      data: { company_id: companyId, remaining_data: data },
      once: `data-low:${companyId}:${today}`,
    });
}

/** Data history and overview (product §2 company.data-history, services.data-history, services.data-overview). */
export const dataUsageService = {
  history(ctx: ServiceContext, query: DataHistoryQuery) {
    return dataUsageRepository.history(ctx.db, scopeOf(ctx.caller), query, {
      companyId: query.company_id,
      deviceId: query.device_id,
      from: query.from,
      to: query.to,
    });
  },

  /** Each company's data left, its pace over the last 30 days and the day it runs out at that pace. */
  async overview(ctx: ServiceContext, page: { limit: number; offset: number }, now = new Date()) {
    const since = dayOf(new Date(now.getTime() - (PACE_DAYS - 1) * DAY_MS));
    const { rows, total } = await dataUsageRepository.overview(ctx.db, scopeOf(ctx.caller), page, since);
    return {
      total,
      rows: rows.map((r) => {
        const daily = Math.round(r.spent / PACE_DAYS);
        return {
          company_id: r.company_id,
          company_name: r.company_name,
          remaining_data: r.remaining,
          spent_30_days: r.spent,
          daily_average: daily,
          runs_out_on:
            daily > 0 ? dayOf(new Date(now.getTime() + Math.floor(r.remaining / daily) * DAY_MS)) : null,
        };
      }),
    };
  },
};
