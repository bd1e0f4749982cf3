import { eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database';
import { companies } from '../db/schema/companies';
import { users } from '../db/schema/users';

/** The reads of the admin command (cli/admin-commands.ts) that no feature repository offers. */
export const adminRepository = {
  /** The root company, where super admins belong (the oldest company without a parent, as the seed finds it). */
  async rootCompany(db: Db): Promise<{ id: number; name: string } | undefined> {
    const [root] = await db
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(isNull(companies.parentId))
      .orderBy(companies.id)
      .limit(1);
    return root;
  },

  /** A user by (lower-cased) e-mail address. */
  async userByEmail(db: Db, email: string): Promise<{ id: number; companyId: number } | undefined> {
    const [user] = await db
      .select({ id: users.id, companyId: users.companyId })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    return user;
  },
};
