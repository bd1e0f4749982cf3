import { eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { impersonationGrants } from '#src/db/schema/impersonation';
import { rolePermissions, roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import { type AccountBlock, accountBlockOf } from '../account/account-state';

/** Everything the policy layer needs to know about who is asking. */
export type Principal = {
  id: number;
  email: string;
  username: string;
  avatarUrl: string | null;
  mfaType: string | null;
  countryIsoCode: string | null;
  tosAccepted: boolean;
  company: {
    id: number;
    parentId: number | null;
    name: string;
    level: number;
    path: string;
    showPayment: boolean;
    paymentType: string;
  };
  role: { id: number; name: string; title: string };
  permissions: string[];
  /**
   * Whether the user reaches the subtree under their company (their role sees companies,
   * product §6) or only their own company. Decided by the role, so a personal access token
   * narrows what a user may do, never where.
   */
  subtree: boolean;
  /** The product §6 blocking condition the user is in, if any (account/account-state.ts). */
  block: AccountBlock | null;
  /**
   * The end of the latest impersonation access the user confirmed and did not withdraw
   * (product §3 impersonation_access_limit); in force only while it lies ahead.
   */
  grantedUntil: Date | null;
};

/** Loads a user with company, role and permissions in one query. */
export async function findPrincipal(db: Db, userId: number): Promise<Principal | undefined> {
  const [row] = await db
    .select({
      user: users,
      company: companies,
      role: { id: roles.id, name: roles.name, title: roles.title },
      permissions: sql<
        string[]
      >`coalesce(array(select ${rolePermissions.permission} from ${rolePermissions} where ${rolePermissions.roleId} = ${roles.id} order by 1), '{}')`,
      grantedUntil: sql<
        string | null
      >`(select max(${impersonationGrants.grantedUntil}) from ${impersonationGrants} where ${impersonationGrants.userId} = ${users.id} and ${impersonationGrants.confirmedAt} is not null and ${impersonationGrants.revokedAt} is null)`,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return undefined;
  const { user, company, role } = row;
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    avatarUrl: user.avatarUrl,
    mfaType: user.mfaType,
    countryIsoCode: user.countryIsoCode,
    tosAccepted: user.tosAcceptedAt !== null,
    company: {
      id: company.id,
      parentId: company.parentId,
      name: company.name,
      level: company.level,
      path: company.path,
      showPayment: company.showPayment,
      paymentType: company.paymentType,
    },
    role,
    permissions: row.permissions,
    subtree: row.permissions.includes('view_companies'),
    block: accountBlockOf({ ...user, mfaMandatory: company.mfaMandatory }),
    // A raw subquery answers text on PGlite and a Date on node-postgres alike: read both.
    grantedUntil: row.grantedUntil === null ? null : new Date(row.grantedUntil),
  };
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return row;
}

export async function recordLogin(db: Db, userId: number, now: Date): Promise<void> {
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
}

export async function findPasswordHash(db: Db, userId: number): Promise<string | null | undefined> {
  const [row] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.hash;
}
