import { hashPassword } from '@fleetgate/server/auth/passwords';
import { openDatabase } from '@fleetgate/server/db/database';
import { users } from '@fleetgate/server/db/schema/users';
import { companiesRepository } from '@fleetgate/server/modules/companies/companies.repository';
import { DEFAULT_ROLES, type RoleName } from '@fleetgate/shared/roles';

/** Every fixture user signs in with this password. */
export const USER_PASSWORD = 'e2e-user-password';

/**
 * The tenant tree every e2e data directory starts with:
 * Fleetgate (1, root) ─┬─ Acme ── Acme North
 *                      └─ Beta
 */
export const COMPANIES = ['Acme', 'Acme North', 'Beta'] as const;

export const USERS = {
  acmeAdmin: { email: 'acme.admin@fleetgate.test', role: 'admin', company: 'Acme' },
  acmeAdvanced: { email: 'acme.advanced@fleetgate.test', role: 'readonly_admin', company: 'Acme' },
  acmeClient: { email: 'acme.client@fleetgate.test', role: 'end_user', company: 'Acme' },
  acmeGuest: { email: 'acme.guest@fleetgate.test', role: 'read_only', company: 'Acme' },
  northAdmin: { email: 'north.admin@fleetgate.test', role: 'admin', company: 'Acme North' },
  betaAdmin: { email: 'beta.admin@fleetgate.test', role: 'admin', company: 'Beta' },
} as const satisfies Record<string, { email: string; role: RoleName; company: (typeof COMPANIES)[number] }>;

/** Adds the fixture companies and users to a stopped server's data directory. */
export async function seedFixtures(dataDir: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir: `${dataDir}/pglite` });
  try {
    const acme = await companiesRepository.insert(database.db, { name: 'Acme', parentId: 1 });
    const north = await companiesRepository.insert(database.db, { name: 'Acme North', parentId: acme!.id });
    const beta = await companiesRepository.insert(database.db, { name: 'Beta', parentId: 1 });
    const ids = { Acme: acme!.id, 'Acme North': north!.id, Beta: beta!.id };
    const passwordHash = await hashPassword(USER_PASSWORD);
    await database.db.insert(users).values(
      Object.values(USERS).map((u) => ({
        email: u.email,
        username: u.email.split('@')[0]!,
        passwordHash,
        companyId: ids[u.company],
        roleId: DEFAULT_ROLES.find((r) => r.name === u.role)!.id,
        emailVerifiedAt: new Date(),
        tosAcceptedAt: new Date(),
      })),
    );
  } finally {
    await database.close();
  }
}
