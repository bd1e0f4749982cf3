import { DEFAULT_ROLES, type RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../src/auth/passwords';
import { users } from '../src/db/schema/users';
import { companiesRepository } from '../src/modules/companies/companies.repository';
import { TestClient } from './app';

export const USER_PASSWORD = 'user-password-1';

let hashed: Promise<string> | undefined;

/** A company under a parent (the root company, id 1, by default). */
export async function createCompany(app: FastifyInstance, name: string, parentId = 1) {
  const company = await companiesRepository.insert(app.db, { name, parentId });
  if (!company) throw new Error(`parent ${parentId} not found`);
  return company;
}

/** A user with a default role, signing in with USER_PASSWORD. */
export async function createUser(app: FastifyInstance, email: string, role: RoleName, companyId: number) {
  hashed ??= hashPassword(USER_PASSWORD);
  const roleId = DEFAULT_ROLES.find((r) => r.name === role)!.id;
  const [user] = await app.db
    .insert(users)
    .values({
      email,
      username: email.split('@')[0]!,
      passwordHash: await hashed,
      companyId,
      roleId,
      emailVerifiedAt: new Date(),
    })
    .returning();
  return user!;
}

/** A signed-in client for a user made by createUser. */
export function signedIn(app: FastifyInstance, email: string) {
  return new TestClient(app).login(email, USER_PASSWORD);
}

/**
 * The tenant tree most policy tests use:
 * root (1) ─┬─ Acme ── Acme North
 *           └─ Beta
 */
export async function tenantTree(app: FastifyInstance) {
  const acme = await createCompany(app, 'Acme');
  const north = await createCompany(app, 'Acme North', acme.id);
  const beta = await createCompany(app, 'Beta');
  return { acme, north, beta };
}
