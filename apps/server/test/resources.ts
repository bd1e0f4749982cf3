import { isPaidType } from '@fleetgate/shared/resources';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ledgerAccounts } from '#src/db/schema/resources';
import type { TestClient } from './app';

/** A company's balance of one resource type (null: its data in bytes), read from the ledger itself. */
export async function companyBalance(app: FastifyInstance, companyId: number, type: number | null) {
  const [row] = await app.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      sql`${ledgerAccounts.kind} = 'company' and ${ledgerAccounts.companyId} = ${companyId} and ${ledgerAccounts.resourceTypeId} is not distinct from ${type}`,
    );
  return row?.balance ?? 0;
}

/** newPool as the super admin sends it: paid types with a price and a pro-forma number. */
export function issuePool(superAdmin: TestClient, companyId: number, type: number, amount: number) {
  return superAdmin.post('/api/credits', {
    credit_type_id: type,
    credit_count: amount,
    company_id: companyId,
    ...(isPaidType(type) ? { credit_price: 1.5, pro_form_nr: `PF-${companyId}-${amount}` } : {}),
  });
}
