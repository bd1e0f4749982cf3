import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { devices } from '#src/db/schema/devices';
import { deviceTags, tags } from '#src/db/schema/tags';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

export type TagField =
  | 'id'
  | 'name'
  | 'description'
  | 'color'
  | 'company_id'
  | 'company_name'
  | 'created_at'
  | 'updated_at';

export const tagListSpec: ListSpec<TagField> = {
  columns: {
    id: tags.id,
    name: tags.name,
    description: tags.description,
    color: tags.color,
    company_id: tags.companyId,
    company_name: companies.name,
    created_at: tags.createdAt,
    updated_at: tags.updatedAt,
  },
  sortable: ['id', 'name', 'company_name', 'created_at'],
  searchable: ['name', 'description'],
  defaultSearch: ['name'],
  defaultSort: 'name',
  idColumn: tags.id,
};

/** Devices of a tag that the caller reaches (a subsidiary's device under a parent's tag stays hidden from a caller who sees one company only). */
const devicesCount = (scope: Scope) =>
  sql<number>`(select count(*)::int from ${deviceTags} inner join ${devices} on ${devices.id} = ${deviceTags.deviceId} where ${deviceTags.tagId} = ${tags.id} and ${companyColumnInScope(devices.companyId, scope)})`;

const rowOf = (scope: Scope) => ({
  id: tags.id,
  company_id: tags.companyId,
  company_name: companies.name,
  name: tags.name,
  description: tags.description,
  color: tags.color,
  devices_count: devicesCount(scope),
  created_at: tags.createdAt,
  updated_at: tags.updatedAt,
});

export type TagFilters = { companyId?: number[] };
export type TagRow = Awaited<ReturnType<typeof tagsRepository.find>>;

/** Tags visible to a caller: those of the companies in its scope. */
const inScope = (scope: Scope) => companyColumnInScope(tags.companyId, scope);

/** Only this file reads and writes tags and device tags. */
export const tagsRepository = {
  async list(db: Db, scope: Scope, query: ListQuery, filters: TagFilters = {}) {
    // devices_count is computed, so it sorts here rather than through the list spec.
    const byCount = query.sort?.replace(/^-/, '') === 'devices_count';
    const plan = listPlan(tagListSpec, byCount ? { ...query, sort: undefined } : query);
    const countColumn = devicesCount(scope);
    const orderBy: SQL[] = byCount
      ? [query.sort?.startsWith('-') ? desc(countColumn) : asc(countColumn), asc(tags.id)]
      : plan.orderBy;
    const where = allOf(
      inScope(scope),
      plan.search,
      filters.companyId?.length ? inArray(tags.companyId, filters.companyId) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(rowOf(scope))
        .from(tags)
        .innerJoin(companies, eq(companies.id, tags.companyId))
        .where(where)
        .orderBy(...orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db
        .select({ n: count() })
        .from(tags)
        .innerJoin(companies, eq(companies.id, tags.companyId))
        .where(where),
    ]);
    const fields =
      plan.fields && query.fields?.includes('devices_count')
        ? [...plan.fields, 'devices_count']
        : plan.fields;
    return { rows, total: total?.n ?? 0, fields };
  },

  async find(db: Db, scope: Scope, id: number) {
    const [found] = await db
      .select(rowOf(scope))
      .from(tags)
      .innerJoin(companies, eq(companies.id, tags.companyId))
      .where(and(eq(tags.id, id), inScope(scope)))
      .limit(1);
    return found;
  },

  /** Tag names are unique per company, ignoring case (the `tags_company_name_key` index). */
  async nameTaken(db: Db, companyId: number, name: string, except?: number): Promise<boolean> {
    const [found] = await db
      .select({ id: tags.id })
      .from(tags)
      .where(
        allOf(
          eq(tags.companyId, companyId),
          sql`lower(${tags.name}) = lower(${name})`,
          except === undefined ? undefined : sql`${tags.id} <> ${except}`,
        ),
      )
      .limit(1);
    return found !== undefined;
  },

  async insert(db: Db, values: { companyId: number; name: string; description: string; color: string }) {
    const [created] = await db.insert(tags).values(values).returning({ id: tags.id });
    return created!.id;
  },

  async update(db: Db, id: number, values: { name?: string; description?: string; color?: string }) {
    await db
      .update(tags)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(tags.id, id));
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(tags).where(eq(tags.id, id));
  },

  /** The named devices the caller reaches, with the path of their company. */
  async devicesInScope(db: Db, scope: Scope, ids: readonly number[]) {
    return db
      .select({ id: devices.id, companyId: devices.companyId, path: companies.path })
      .from(devices)
      .innerJoin(companies, eq(companies.id, devices.companyId))
      .where(and(inArray(devices.id, [...ids]), companyColumnInScope(devices.companyId, scope)));
  },

  /** Adds or removes a tag on devices; answers how many links changed. */
  async setOnDevices(db: Db, tagId: number, deviceIds: readonly number[], action: 'add' | 'remove') {
    if (action === 'add') {
      const added = await db
        .insert(deviceTags)
        .values(deviceIds.map((deviceId) => ({ deviceId, tagId })))
        .onConflictDoNothing()
        .returning({ deviceId: deviceTags.deviceId });
      return added.length;
    }
    const removed = await db
      .delete(deviceTags)
      .where(and(eq(deviceTags.tagId, tagId), inArray(deviceTags.deviceId, [...deviceIds])))
      .returning({ deviceId: deviceTags.deviceId });
    return removed.length;
  },

  /** The tag's devices in scope counted by status number (product §4) and by model. */
  async chart(db: Db, scope: Scope, tagId: number) {
    const where = and(eq(deviceTags.tagId, tagId), companyColumnInScope(devices.companyId, scope));
    const [statuses, models] = await Promise.all([
      db
        .select({ status: devices.status, count: count() })
        .from(deviceTags)
        .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
        .where(where)
        .groupBy(devices.status),
      db
        .select({ model: devices.model, count: count() })
        .from(deviceTags)
        .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
        .where(where)
        .groupBy(devices.model)
        .orderBy(desc(count()), sql`${devices.model} asc nulls last`),
    ]);
    return { statuses, models };
  },
};
