import { FIRMWARE_VERSION_PATTERNS, firmwareFilterOf } from '@fleetgate/shared/devices/firmware';
import { deviceStatusText } from '@fleetgate/shared/devices/status';
import { DEVICE_KEYSET_SORTS, DEVICE_SEARCH_FIELDS, DEVICE_SORTS } from '@fleetgate/shared/schemas/devices';
import { asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '#src/db/database';
import { allOf, likePattern } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { deviceSearch, deviceSearchBuckets, deviceState, devices } from '#src/db/schema/devices';
import { deviceTags, tags } from '#src/db/schema/tags';
import { badRequest } from '#src/http/errors';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';
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
  /** Devices carrying any of these tags (product §2 tags.main → devices). */
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

/** The fields a search looks in and the `ilike` patterns it tries (product §7 Search). */
function searchTerms(q: string, fields: string[] | undefined) {
  const asked = (fields ?? []).filter((f): f is SearchField =>
    (DEVICE_SEARCH_FIELDS as readonly string[]).includes(f),
  );
  const searched = asked.length ? asked : [...DEVICE_SEARCH_FIELDS];
  // A MAC typed without separators ('1E42AB') also finds '00:1E:42:AB:...'. Digits alone
  // are far likelier a serial or IMEI, and the extra condition costs the planner its
  // index plan, so it needs a hex letter (or a whole MAC).
  const bareMac = /^[0-9a-f]{4,12}$/i.test(q) && q.length % 2 === 0 && (/[a-f]/i.test(q) || q.length === 12);
  const macPattern =
    bareMac && searched.includes('mac') ? likePattern(q.match(/.{2}/g)!.join(':')) : undefined;
  return { searched, pattern: likePattern(q), macPattern };
}

/**
 * Substring search over the asked fields; trigram indexes serve `ilike`.
 * `scan` words it so that no index matches (`column || ''`): counting a common pattern
 * up to the cap then reads rows until the cap, instead of collecting every match through
 * the trigram indexes first.
 */
function searchCondition(q: string, fields: string[] | undefined, scan = false): SQL {
  const { searched, pattern, macPattern } = searchTerms(q, fields);
  const column = (f: SearchField) => (scan ? sql`(${SEARCH_COLUMNS[f]} || '')` : sql`${SEARCH_COLUMNS[f]}`);
  const conditions = searched.map((f) => sql`${column(f)} ilike ${pattern}`);
  if (macPattern) conditions.push(sql`${column('mac')} ilike ${macPattern}`);
  return or(...conditions)!;
}

/** Devices carrying any of the tags; a tag outside the caller's companies matches nothing. */
function taggedWith(scope: Scope, tagIds: number[]): SQL {
  const visibleTags = sql`select ${tags.id} from ${tags} where ${inArray(tags.id, tagIds)} and ${companyColumnInScope(tags.companyId, scope)}`;
  return sql`${devices.id} in (select ${deviceTags.deviceId} from ${deviceTags} where ${deviceTags.tagId} in (${visibleTags}))`;
}

/** The stored firmware's version as numbers ('RUT2_R_00.07.06.19' → {7,6,19}), null without one. */
const firmwareParts = sql`string_to_array(coalesce(substring(${devices.firmware} from ${FIRMWARE_VERSION_PATTERNS.image}), substring(${devices.firmware} from ${FIRMWARE_VERSION_PATTERNS.bare})), '.')::int[]`;

/** Devices whose firmware matches any filter: a whole name exactly, a version by its first parts. */
function firmwareMatches(values: string[]): SQL {
  const conditions = values.flatMap((value): SQL[] => {
    const filter = firmwareFilterOf(value);
    if (!filter) return [];
    if ('exact' in filter) return [eq(devices.firmware, filter.exact)];
    const wanted = sql.join(
      filter.version.map((n) => sql`${n}`),
      sql`, `,
    );
    return [sql`(${firmwareParts})[1:${filter.version.length}] = array[${wanted}]::int[]`];
  });
  return conditions.length ? or(...conditions)! : sql`false`;
}

function filters(scope: Scope, p: DeviceListParams, scan = false): SQL | undefined {
  return allOf(
    companyColumnInScope(devices.companyId, scope),
    p.q ? searchCondition(p.q, p.searchFields, scan) : undefined,
    p.status?.length ? inArray(devices.status, p.status) : undefined,
    p.model?.length ? inArray(devices.model, p.model) : undefined,
    p.companyId?.length ? inArray(devices.companyId, p.companyId) : undefined,
    p.firmware?.length ? firmwareMatches(p.firmware) : undefined,
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
  let cursor: Cursor | undefined;
  if (p.cursor) {
    if (!keyset) throw badRequest(`Sort by ${sort} pages with offset, not a cursor`, 'cursor');
    cursor = decodeCursor(p.cursor, sort);
  }
  /** Rows after the cursor, on these columns (the list's own, or device_search's). */
  const afterOn = (value: AnyPgColumn, id: AnyPgColumn): SQL | undefined => {
    if (!cursor) return undefined;
    const v = sort === 'created_at' ? sql`${String(cursor.v)}::timestamptz` : sql`${cursor.v}`;
    return descending
      ? sql`(${value}, ${id}) < (${v}, ${cursor.id})`
      : sql`(${value}, ${id}) > (${v}, ${cursor.id})`;
  };
  return { sort, descending, keyset, orderBy, after: afterOn(column, devices.id), afterOn };
}

type Plan = ReturnType<typeof plan>;

function cursorValue(sort: SortKey, row: Record<string, unknown>): string | number {
  const v = row[sort];
  return v instanceof Date ? v.toISOString() : (v as string | number);
}

const withText = <T extends { status: number }>(row: T) => ({
  ...row,
  status_text: deviceStatusText(row.status),
});

/** The rows of `table` matching `where`, counted up to the cap. */
async function countCapped(
  db: Db,
  where: SQL | undefined,
  table: typeof devices | typeof deviceSearch = devices,
): Promise<number> {
  const matching = db
    .select({ one: sql`1` })
    .from(table as typeof devices)
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
  const cell = rowsOf<Record<string, unknown>>(result)[0]?.['QUERY PLAN'];
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
 * Whether the page can come from walking device_search: sorted by name, filtered by
 * nothing device_search lacks (it holds company, name and the searched text, not status,
 * model, firmware or tags), searching every field, and a pattern without a tab, which
 * would match across two fields of its text.
 */
function walkable(p: DeviceListParams, order: Plan): boolean {
  const everyField =
    !p.searchFields?.length || DEVICE_SEARCH_FIELDS.every((f) => p.searchFields!.includes(f));
  return (
    order.sort === 'name' &&
    !p.status?.length &&
    !p.model?.length &&
    !p.firmware?.length &&
    !p.tagId?.length &&
    (!p.q || (everyField && !p.q.includes('\t')))
  );
}

/** device_search rows in the caller's companies matching the list's company filter and search. */
function searchRows(scope: Scope, p: DeviceListParams): SQL | undefined {
  const s = deviceSearch;
  let text: SQL | undefined;
  if (p.q) {
    const { pattern, macPattern } = searchTerms(p.q, undefined);
    text = sql`${s.text} like lower(${pattern})`;
    if (macPattern) text = or(text, sql`${s.text} like lower(${macPattern})`);
  }
  return allOf(
    companyColumnInScope(s.companyId, scope),
    p.companyId?.length ? inArray(s.companyId, p.companyId) : undefined,
    text,
  );
}

/**
 * The page's device ids by an index-only walk of device_search in name order: it stops at
 * the page's last row, and at worst reads the narrow index once, which costs less than
 * collecting and sorting every match of a common pattern (bench/list.ts).
 */
async function walkedPage(db: Db, scope: Scope, p: DeviceListParams, order: Plan): Promise<number[]> {
  const s = deviceSearch;
  const rows = await db
    .select({ id: s.deviceId })
    .from(s)
    .where(allOf(searchRows(scope, p), order.afterOn(s.name, s.deviceId)))
    .orderBy(...(order.descending ? [desc(s.name), desc(s.deviceId)] : [asc(s.name), asc(s.deviceId)]))
    .limit(p.limit)
    .offset(p.cursor ? 0 : p.offset);
  return rows.map((r) => r.id);
}

/**
 * A deep page without a search, from the stretch counts (schema/devices.ts
 * deviceSearchBuckets): add up the caller's counts per stretch to find the stretch holding
 * the page's first row and how many rows come before it, then walk device_search from that
 * stretch's start. It costs one count per stretch and company plus at most one stretch,
 * whatever the offset. A descending page is the same rows counted from the end, read
 * ascending and turned round. One statement, so counts and rows come from one snapshot.
 */
async function anchoredPage(db: Db, scope: Scope, p: DeviceListParams, order: Plan): Promise<number[]> {
  const b = deviceSearchBuckets;
  const s = deviceSearch;
  const counted = allOf(
    companyColumnInScope(b.companyId, scope),
    p.companyId?.length ? inArray(b.companyId, p.companyId) : undefined,
  );
  // Ascending positions of the page: [start, start + take).
  const window = order.descending
    ? sql`select greatest(t - ${p.offset}::int - ${p.limit}::int, 0) as start,
                 greatest(least(${p.limit}::int, t - ${p.offset}::int), 0) as take from total`
    : sql`select ${p.offset}::int as start, ${p.limit}::int as take`;
  const result = await db.execute(sql`
    with stretches as (
      select ${b.loName} as lo_name, ${b.loId} as lo_id, sum(${b.n}) as n
      from ${b} where ${counted ?? sql`true`} group by 1, 2
    ), total as (
      select coalesce(sum(n), 0) as t from stretches
    ), page as (${window}), anchor as (
      select lo_name, lo_id, before from (
        select lo_name, lo_id, sum(n) over (order by lo_name, lo_id) - n as before from stretches
      ) c
      where before <= (select start from page)
      order by lo_name desc, lo_id desc limit 1
    )
    select ${s.deviceId} as id from ${s}
    where ${allOf(searchRows(scope, p), sql`(${s.name}, ${s.deviceId}) >= ((select lo_name from anchor), (select lo_id from anchor))`)}
    order by ${s.name}, ${s.deviceId}
    offset (select (select start from page) - before from anchor)
    limit (select take from page)`);
  const ids = rowsOf<{ id: number }>(result).map((r) => r.id);
  return order.descending ? ids.reverse() : ids;
}

type Strategy = {
  /** The rows the page is taken from, or (`ids`) exactly the page's rows. */
  pageWhere: SQL | undefined;
  exactPage: boolean;
  count: () => Promise<number>;
};

/**
 * How a list finds its page and its count (bench/list.ts has the figures at 1M rows).
 * A search the planner expects to be rare collects its ids through the trigram indexes,
 * then sorts just those, never walking the sort index row by row in search of a rare
 * match (the ORDER BY + LIMIT trap). A common one sorted by name walks device_search in
 * order (`walkedPage`) and counts there up to the cap; sorted otherwise, the planner
 * picks the page's plan itself, and the count is worded so no index serves it: a plain
 * scan stops at the cap, where the trigram indexes would collect every match first. A
 * page by offset sorted by name without a search starts from the stretch counts
 * (`anchoredPage`), instead of reading every row it skips. The estimate only picks the
 * faster way: all give the same rows.
 */
async function strategy(db: Db, scope: Scope, p: DeviceListParams, order: Plan): Promise<Strategy> {
  const where = filters(scope, p);
  const walk = walkable(p, order);
  const walked = async (
    page: (db: Db, scope: Scope, p: DeviceListParams, order: Plan) => Promise<number[]>,
    count: () => Promise<number>,
  ): Promise<Strategy> => {
    // Counting needs no page: on PostgreSQL it runs beside the walk, on another connection.
    const counted = count();
    counted.catch(() => undefined); // awaited by the caller; a failing walk must not orphan it
    return { pageWhere: idIn(await page(db, scope, p, order)), exactPage: true, count: () => counted };
  };
  if (!p.q) {
    const count = () => countCapped(db, where);
    if (walk && !p.cursor && p.offset > 0) return walked(anchoredPage, count);
    return { pageWhere: where, exactPage: false, count };
  }
  if ((await estimatedMatches(db, where)) <= DEVICE_COUNT_CAP) {
    const ids = await matchingIds(db, where);
    if (ids) return { pageWhere: idIn(ids), exactPage: false, count: () => Promise.resolve(ids.length) };
  }
  if (walk) return walked(walkedPage, () => countCapped(db, searchRows(scope, p), deviceSearch));
  return { pageWhere: where, exactPage: false, count: () => countCapped(db, filters(scope, p, true)) };
}

/**
 * The devices list: filters, sort, substring search, offset paging, and
 * keyset paging (`cursor`) for sorts on non-null columns, so deep pages cost what the
 * first does. `total` is exact up to DEVICE_COUNT_CAP; `totalCapped` says there are more.
 */
export async function listDevices(db: Db, scope: Scope, p: DeviceListParams) {
  const order = plan(p);
  const { pageWhere, exactPage, count: counting } = await strategy(db, scope, p, order);
  const [rows, counted] = await Promise.all([
    db
      .select(deviceRowColumns)
      .from(devices)
      .innerJoin(companies, eq(companies.id, devices.companyId))
      .leftJoin(deviceState, eq(deviceState.deviceId, devices.id))
      .where(exactPage ? pageWhere : allOf(pageWhere, order.after))
      .orderBy(...order.orderBy)
      .limit(p.limit)
      .offset(exactPage || p.cursor ? 0 : p.offset),
    counting(),
  ]);
  const last = rows.at(-1);
  const nextCursor =
    order.keyset && last && rows.length === p.limit
      ? encodeCursor({ s: order.sort, v: cursorValue(order.sort, last), id: last.id })
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
