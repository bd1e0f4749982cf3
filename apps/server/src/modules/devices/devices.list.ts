import { deviceStatusText } from '@fleetgate/shared/devices/status';
import { DEVICE_KEYSET_SORTS, DEVICE_SEARCH_FIELDS, DEVICE_SORTS } from '@fleetgate/shared/schemas/devices';
import { asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { deviceTags, tags } from '../../db/schema/accounts';
import { companies } from '../../db/schema/companies';
import { deviceState, devices } from '../../db/schema/devices';
import { badRequest } from '../../http/errors';
import { allOf, likePattern } from '../../http/list-query';
import { companyColumnInScope, type Scope } from '../policy/scope';
import { deviceRowColumns } from './devices.repository';

type SortKey = (typeof DEVICE_SORTS)[number];
type SearchField = (typeof DEVICE_SEARCH_FIELDS)[number];

const SORT_COLUMNS: Record<SortKey, AnyPgColumn> = {
  id: devices.id,
  name: devices.name,
  serial: devices.serial,
  mac: devices.mac,
  status: devices.status,
  created_at: devices.createdAt,
  model: devices.model,
  firmware: devices.firmware,
  last_seen_at: devices.lastSeenAt,
  company_name: companies.name,
};

const SEARCH_COLUMNS: Record<SearchField, AnyPgColumn> = {
  name: devices.name,
  serial: devices.serial,
  mac: devices.mac,
  imei: devices.imei,
};

export type DeviceListParams = {
  limit: number;
  offset: number;
  sort?: string | undefined;
  q?: string | undefined;
  searchFields?: string[] | undefined;
  status?: number[] | undefined;
  model?: string[] | undefined;
  companyId?: number[] | undefined;
  firmware?: string[] | undefined;
  /** Devices carrying any of these tags (spec §2 tags.main → devices). */
  tagId?: number[] | undefined;
  cursor?: string | undefined;
};

type Cursor = { s: SortKey; v: string | number; id: number };

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, sort: SortKey): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (c.s === sort && Number.isInteger(c.id) && (typeof c.v === 'string' || typeof c.v === 'number'))
      return c;
  } catch {
    // fall through
  }
  throw badRequest('The cursor does not belong to this list; start again without it', 'cursor');
}

/**
 * Lists count exactly up to this many matches and say "more" beyond (`meta.total_capped`):
 * an exact count of a million rows costs more than the page itself (bench/list.ts).
 */
export const DEVICE_COUNT_CAP = 10_000;

/**
 * Substring search over the asked fields (spec §7 Search); trigram indexes serve `ilike`.
 * `scan` words it so that no index matches (`column || ''`): counting a common pattern
 * up to the cap then reads rows until the cap, instead of collecting every match through
 * the trigram indexes first.
 */
function searchCondition(q: string, fields: string[] | undefined, scan = false): SQL {
  const asked = (fields ?? []).filter((f): f is SearchField =>
    (DEVICE_SEARCH_FIELDS as readonly string[]).includes(f),
  );
  const searched = asked.length ? asked : DEVICE_SEARCH_FIELDS;
  const pattern = likePattern(q);
  const column = (f: SearchField) => (scan ? sql`(${SEARCH_COLUMNS[f]} || '')` : sql`${SEARCH_COLUMNS[f]}`);
  const conditions = searched.map((f) => sql`${column(f)} ilike ${pattern}`);
  // A MAC typed without separators ('1E42AB') also finds '00:1E:42:AB:...'. Digits alone
  // are far likelier a serial or IMEI, and the extra condition costs the planner its
  // index plan, so it needs a hex letter (or a whole MAC).
  const bareMac = /^[0-9a-f]{4,12}$/i.test(q) && q.length % 2 === 0 && (/[a-f]/i.test(q) || q.length === 12);
  if (bareMac && searched.includes('mac')) {
    conditions.push(sql`${column('mac')} ilike ${likePattern(q.match(/.{2}/g)!.join(':'))}`);
  }
  return or(...conditions)!;
}

/** Devices carrying any of the tags; a tag outside the caller's companies matches nothing. */
function taggedWith(scope: Scope, tagIds: number[]): SQL {
  const visibleTags = sql`select ${tags.id} from ${tags} where ${inArray(tags.id, tagIds)} and ${companyColumnInScope(tags.companyId, scope)}`;
  return sql`${devices.id} in (select ${deviceTags.deviceId} from ${deviceTags} where ${deviceTags.tagId} in (${visibleTags}))`;
}

function filters(scope: Scope, p: DeviceListParams, scan = false): SQL | undefined {
  return allOf(
    companyColumnInScope(devices.companyId, scope),
    p.q ? searchCondition(p.q, p.searchFields, scan) : undefined,
    p.status?.length ? inArray(devices.status, p.status) : undefined,
    p.model?.length ? inArray(devices.model, p.model) : undefined,
    p.companyId?.length ? inArray(devices.companyId, p.companyId) : undefined,
    p.firmware?.length ? inArray(devices.firmware, p.firmware) : undefined,
    p.tagId?.length ? taggedWith(scope, p.tagId) : undefined,
  );
}

function plan(p: DeviceListParams) {
  const text = p.sort ?? 'name';
  const key = text.replace(/^-/, '');
  if (!(DEVICE_SORTS as readonly string[]).includes(key)) {
    throw badRequest(`Cannot sort by ${key}. Sortable: ${DEVICE_SORTS.join(', ')}`, 'sort');
  }
  const sort = key as SortKey;
  const descending = text.startsWith('-');
  const column = SORT_COLUMNS[sort];
  const keyset = (DEVICE_KEYSET_SORTS as readonly string[]).includes(sort);
  const orderBy = descending
    ? [sql`${column} desc nulls last`, desc(devices.id)]
    : [sql`${column} asc nulls last`, asc(devices.id)];
  let after: SQL | undefined;
  if (p.cursor) {
    if (!keyset) throw badRequest(`Sort by ${sort} pages with offset, not a cursor`, 'cursor');
    const c = decodeCursor(p.cursor, sort);
    const value = sort === 'created_at' ? sql`${String(c.v)}::timestamptz` : sql`${c.v}`;
    after = descending
      ? sql`(${column}, ${devices.id}) < (${value}, ${c.id})`
      : sql`(${column}, ${devices.id}) > (${value}, ${c.id})`;
  }
  return { sort, keyset, orderBy, after };
}

function cursorValue(sort: SortKey, row: Record<string, unknown>): string | number {
  const v = row[sort];
  return v instanceof Date ? v.toISOString() : (v as string | number);
}

const withText = <T extends { status: number }>(row: T) => ({
  ...row,
  status_text: deviceStatusText(row.status),
});

/** The rows matching `where`, counted up to the cap. */
async function countCapped(db: Db, where: SQL | undefined): Promise<number> {
  const matching = db
    .select({ id: devices.id })
    .from(devices)
    .where(where)
    .limit(DEVICE_COUNT_CAP + 1)
    .as('matching');
  const [row] = await db.select({ n: count() }).from(matching);
  return row?.n ?? 0;
}

/** The planner's estimate of the devices matching `where` (EXPLAIN: nothing runs). */
async function estimatedMatches(db: Db, where: SQL | undefined): Promise<number> {
  const result = await db.execute(
    sql`explain (format json) select 1 from ${devices} where ${where ?? sql`true`}`,
  );
  const cell = (result as unknown as { rows: Record<string, unknown>[] }).rows[0]?.['QUERY PLAN'];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan?: { 'Plan Rows'?: number } }];
  return Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** The ids matching `where`, or null when there are more than the cap. */
async function matchingIds(db: Db, where: SQL | undefined): Promise<number[] | null> {
  const found = await db
    .select({ id: devices.id })
    .from(devices)
    .where(where)
    .limit(DEVICE_COUNT_CAP + 1);
  return found.length > DEVICE_COUNT_CAP ? null : found.map((r) => r.id);
}

const idIn = (ids: number[]) => sql`${devices.id} = any(${`{${ids.join(',')}}`}::int[])`;

/**
 * How a list finds its page and its count (bench/list.ts has the figures at 1M rows).
 * A search the planner expects to be rare collects its ids through the trigram indexes,
 * then sorts just those, never walking the sort index row by row in search of a rare
 * match (the ORDER BY + LIMIT trap). For a search expected to be common, or found to be,
 * the planner picks the page's plan itself, and the count is worded so no index serves
 * it: a plain scan stops at the cap, where the trigram indexes would collect every match
 * first. The estimate only picks the faster way: both give the same rows and count.
 */
async function strategy(db: Db, scope: Scope, p: DeviceListParams) {
  const where = filters(scope, p);
  if (!p.q) return { pageWhere: where, count: () => countCapped(db, where) };
  if ((await estimatedMatches(db, where)) <= DEVICE_COUNT_CAP) {
    const ids = await matchingIds(db, where);
    if (ids) return { pageWhere: idIn(ids), count: () => Promise.resolve(ids.length) };
  }
  return { pageWhere: where, count: () => countCapped(db, filters(scope, p, true)) };
}

/**
 * The devices list (issue 5 §7): filters, sort, substring search, offset paging, and
 * keyset paging (`cursor`) for sorts on non-null columns, so deep pages cost what the
 * first does. `total` is exact up to DEVICE_COUNT_CAP; `totalCapped` says there are more.
 */
export async function listDevices(db: Db, scope: Scope, p: DeviceListParams) {
  const { sort, keyset, orderBy, after } = plan(p);
  const { pageWhere, count: counting } = await strategy(db, scope, p);
  const [rows, counted] = await Promise.all([
    db
      .select(deviceRowColumns)
      .from(devices)
      .innerJoin(companies, eq(companies.id, devices.companyId))
      .leftJoin(deviceState, eq(deviceState.deviceId, devices.id))
      .where(allOf(pageWhere, after))
      .orderBy(...orderBy)
      .limit(p.limit)
      .offset(p.cursor ? 0 : p.offset),
    counting(),
  ]);
  const last = rows.at(-1);
  const nextCursor =
    keyset && last && rows.length === p.limit
      ? encodeCursor({ s: sort, v: cursorValue(sort, last), id: last.id })
      : undefined;
  return {
    rows: rows.map(withText),
    total: Math.min(counted, DEVICE_COUNT_CAP),
    totalCapped: counted > DEVICE_COUNT_CAP,
    nextCursor,
  };
}

/** Every matching row in list order, a page at a time (CSV export). */
export async function* iterateDevices(db: Db, scope: Scope, p: Omit<DeviceListParams, 'limit' | 'offset'>) {
  const pageSize = 1000;
  let offset = 0;
  for (;;) {
    const { orderBy } = plan({ ...p, cursor: undefined, limit: pageSize, offset });
    const rows = await db
      .select(deviceRowColumns)
      .from(devices)
      .innerJoin(companies, eq(companies.id, devices.companyId))
      .leftJoin(deviceState, eq(deviceState.deviceId, devices.id))
      .where(filters(scope, { ...p, limit: pageSize, offset }))
      .orderBy(...orderBy)
      .limit(pageSize)
      .offset(offset);
    for (const row of rows) yield withText(row);
    if (rows.length < pageSize) return;
    offset += pageSize;
  }
}
