import { RESOURCE_TYPES } from '@fleetgate/shared/resources';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { generatePassword, hashPassword } from '../auth/passwords';
import type { Db } from './database';
import { companies } from './schema/companies';
import { resourceTypes } from './schema/resources';
import { rolePermissions, roles } from './schema/roles';
import { users } from './schema/users';

export const ROOT_COMPANY_NAME = 'Fleetgate';

export type SeedResult = {
  admin: {
    email: string;
    /** Set only when this start created the admin with a generated password. */
    generatedPassword?: string;
    created: boolean;
  };
};

/**
 * Brings the database to the state every start expects: the five default roles of product §6
 * with the permission sets of the code, the resource catalogue, the root company, and a first
 * super admin. Only the roles and the catalogue are re-synchronised on later starts; nothing
 * else is seeded twice.
 */
export async function seed(
  db: Db,
  options: { adminEmail: string; adminPassword?: string },
): Promise<SeedResult> {
  await db.transaction(async (tx) => {
    for (const role of DEFAULT_ROLES) {
      await tx
        .insert(roles)
        .values({
          id: role.id,
          name: role.name,
          title: role.title,
          description: role.description,
          isDefault: true,
        })
        .onConflictDoUpdate({
          target: roles.id,
          set: { name: role.name, title: role.title, description: role.description, isDefault: true },
        });
    }
    const ids = DEFAULT_ROLES.map((r) => r.id);
    await tx.delete(rolePermissions).where(inArray(rolePermissions.roleId, ids));
    await tx
      .insert(rolePermissions)
      .values(
        DEFAULT_ROLES.flatMap((r) => r.permissions.map((permission) => ({ roleId: r.id, permission }))),
      );
    for (const type of RESOURCE_TYPES) {
      const row = {
        name: type.name,
        paymentType: type.payment_type,
        licenseType: type.license_type,
        durationDays: type.duration_days,
        dataBytes: type.data_bytes,
      };
      await tx
        .insert(resourceTypes)
        .values({ id: type.id, ...row })
        .onConflictDoUpdate({ target: resourceTypes.id, set: row });
    }
  });

  let [root] = await db
    .select()
    .from(companies)
    .where(sql`${companies.parentId} is null`)
    .orderBy(companies.id)
    .limit(1);
  if (!root) {
    root = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(companies)
        .values({ name: ROOT_COMPANY_NAME, level: 1, path: '/' })
        .returning();
      const [withPath] = await tx
        .update(companies)
        .set({ path: `/${created!.id}/` })
        .where(eq(companies.id, created!.id))
        .returning();
      return withPath!;
    });
  }

  // The first super admin, the one the first start printed, whoever was added since.
  const [existingAdmin] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.roleId, 1))
    .orderBy(asc(users.id))
    .limit(1);
  if (existingAdmin) return { admin: { email: existingAdmin.email, created: false } };

  const generatedPassword = options.adminPassword ? undefined : generatePassword(16);
  const password = options.adminPassword ?? generatedPassword!;
  const now = new Date();
  await db.insert(users).values({
    email: options.adminEmail,
    username: options.adminEmail.split('@')[0]!,
    passwordHash: await hashPassword(password),
    companyId: root.id,
    roleId: 1,
    emailVerifiedAt: now,
    tosAcceptedAt: now,
  });
  return {
    admin: { email: options.adminEmail, created: true, ...(generatedPassword ? { generatedPassword } : {}) },
  };
}
