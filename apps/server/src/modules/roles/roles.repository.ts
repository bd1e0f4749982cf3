import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { rolePermissions, roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

const row = {
  id: roles.id,
  name: roles.name,
  title: roles.title,
  description: roles.description,
  isDefault: roles.isDefault,
  company_id: roles.companyId,
  company_name: companies.name,
  permissions_count: sql<number>`(select count(*)::int from ${rolePermissions} where ${rolePermissions.roleId} = ${roles.id})`,
};

export type RoleRow = Awaited<ReturnType<typeof rolesRepository.find>>;

/** Default roles (company null) are visible to all; custom roles only within the caller's scope. */
function visible(scope: Scope) {
  return or(isNull(roles.companyId), companyColumnInScope(roles.companyId, scope));
}

export const rolesRepository = {
  async list(
    db: Db,
    scope: Scope,
    filter: { companyId?: number; type?: 'custom' | 'default'; limit: number; offset: number },
  ) {
    const where = and(
      visible(scope),
      filter.type === 'default' ? isNull(roles.companyId) : undefined,
      filter.type === 'custom' ? sql`${roles.companyId} is not null` : undefined,
      // A company's options: the default roles plus that company's own (product §3 newUser).
      filter.companyId === undefined
        ? undefined
        : or(isNull(roles.companyId), eq(roles.companyId, filter.companyId)),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(row)
        .from(roles)
        .leftJoin(companies, eq(companies.id, roles.companyId))
        .where(where)
        .orderBy(sql`${roles.companyId} is not null`, asc(roles.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ n: count() }).from(roles).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async find(db: Db, scope: Scope, id: number) {
    const [found] = await db
      .select(row)
      .from(roles)
      .leftJoin(companies, eq(companies.id, roles.companyId))
      .where(and(eq(roles.id, id), visible(scope)))
      .limit(1);
    return found;
  },

  async permissionsOf(db: Db, roleId: number): Promise<string[]> {
    const rows = await db
      .select({ permission: rolePermissions.permission })
      .from(rolePermissions)
      .where(eq(rolePermissions.roleId, roleId))
      .orderBy(asc(rolePermissions.permission));
    return rows.map((r) => r.permission);
  },

  async nameTaken(db: Db, companyId: number, name: string, except?: number): Promise<boolean> {
    const [found] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(
        and(
          or(isNull(roles.companyId), eq(roles.companyId, companyId)),
          eq(roles.name, name),
          except === undefined ? undefined : sql`${roles.id} <> ${except}`,
        ),
      )
      .limit(1);
    return found !== undefined;
  },

  async create(
    db: Db,
    values: {
      companyId: number;
      name: string;
      title: string;
      description: string;
      permissions: readonly string[];
    },
  ) {
    return db.transaction(async (tx) => {
      const [created] = await tx
        .insert(roles)
        .values({
          companyId: values.companyId,
          name: values.name,
          title: values.title,
          description: values.description,
        })
        .returning({ id: roles.id });
      if (values.permissions.length) {
        await tx
          .insert(rolePermissions)
          .values(values.permissions.map((permission) => ({ roleId: created!.id, permission })));
      }
      return created!.id;
    });
  },

  async update(
    db: Db,
    id: number,
    values: { name?: string; title?: string; description?: string; permissions?: readonly string[] },
  ) {
    await db.transaction(async (tx) => {
      const { permissions, ...fields } = values;
      if (Object.keys(fields).length) await tx.update(roles).set(fields).where(eq(roles.id, id));
      if (permissions) {
        await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, id));
        if (permissions.length)
          await tx
            .insert(rolePermissions)
            .values(permissions.map((permission) => ({ roleId: id, permission })));
      }
    });
  },

  async holders(db: Db, id: number): Promise<number> {
    const [found] = await db.select({ n: count() }).from(users).where(eq(users.roleId, id));
    return found?.n ?? 0;
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(roles).where(and(eq(roles.id, id), sql`${roles.companyId} is not null`));
  },

  async withIds(db: Db, ids: number[]) {
    return ids.length
      ? db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, ids))
      : [];
  },
};
