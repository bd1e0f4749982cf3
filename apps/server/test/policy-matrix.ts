import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TestClient } from './app';
import { createCompany, createUser, signedIn } from './factories';

/**
 * The machinery of the policy matrix tests: every route × every default
 * role × the relation between the caller's company and the target's. Outcomes:
 * - 'ok'     the caller reaches and may act (2xx, or a business refusal such as 400/409);
 * - 'hidden' the target is outside the caller's reach (404, never 403: ARCHITECTURE §4);
 * - 'denied' the caller's role lacks the permission (403).
 *
 * Tenant tree: Root(1) ─┬─ Home ── Child
 *                       ├─ Sibling
 *                       └─ Other ── Unrelated
 * Callers sit in Home; the super admin sits in Root, so every target is in its reach.
 */
export type Relation = 'self' | 'parent' | 'child' | 'sibling' | 'unrelated';
export type Outcome = 'ok' | 'hidden' | 'denied';
export const RELATIONS: Relation[] = ['self', 'parent', 'child', 'sibling', 'unrelated'];
export const CALLERS: RoleName[] = ['admin', 'end_user', 'readonly_admin', 'read_only'];

export type MatrixRow<Target> = {
  name: string;
  /** Makes the request against a shared target of the relation, or a fresh one. */
  call(client: TestClient, target: Target, fresh: () => Promise<Target>): Promise<{ statusCode: number }>;
  expect: Record<RoleName, Outcome | Record<Relation, Outcome>>;
};

export const SUBTREE: Record<Relation, Outcome> = {
  self: 'ok',
  parent: 'hidden',
  child: 'ok',
  sibling: 'hidden',
  unrelated: 'hidden',
};
export const OWN_ONLY: Record<Relation, Outcome> = {
  self: 'ok',
  parent: 'hidden',
  child: 'hidden',
  sibling: 'hidden',
  unrelated: 'hidden',
};

/** Builds the tenant tree; answers the company of each relation to Home. */
export async function matrixTree(app: FastifyInstance): Promise<Record<Relation, number>> {
  const home = await createCompany(app, 'Home');
  const child = await createCompany(app, 'Child', home.id);
  const sibling = await createCompany(app, 'Sibling');
  const other = await createCompany(app, 'Other');
  const unrelated = await createCompany(app, 'Unrelated', other.id);
  return { self: home.id, parent: 1, child: child.id, sibling: sibling.id, unrelated: unrelated.id };
}

/** One signed-in caller per default role in Home, plus the super admin. */
export async function matrixCallers(
  app: FastifyInstance,
  homeId: number,
  domain: string,
): Promise<Record<RoleName, TestClient>> {
  const clients = {} as Record<RoleName, TestClient>;
  for (const role of CALLERS) {
    await createUser(app, `${role}@${domain}`, role, homeId);
    clients[role] = await signedIn(app, `${role}@${domain}`);
  }
  clients.super_admin = await new TestClient(app).login();
  return clients;
}

function classify(status: number): Outcome {
  if (status === 404) return 'hidden';
  if (status === 403) return 'denied';
  if (status < 300 || status === 400 || status === 409) return 'ok';
  throw new Error(`unexpected status ${status}`);
}

/**
 * One test per row × role × relation. `state` is filled in the file's beforeAll, so it is
 * read when a test runs, not when it is declared.
 */
export function describeMatrix<Target>(
  title: string,
  rows: readonly MatrixRow<Target>[],
  state: {
    clients: Record<RoleName, TestClient>;
    targets: Record<Relation, Target>;
    fresh(relation: Relation): Promise<Target>;
  },
): void {
  describe(title, () => {
    for (const row of rows) {
      for (const role of [...CALLERS, 'super_admin'] as RoleName[]) {
        for (const relation of RELATIONS) {
          const expected = row.expect[role];
          const outcome = typeof expected === 'string' ? expected : expected[relation];
          it(`${row.name} — ${role} on ${relation}: ${outcome}`, async () => {
            const response = await row.call(state.clients[role], state.targets[relation], () =>
              state.fresh(relation),
            );
            expect(classify(response.statusCode)).toBe(outcome);
          });
        }
      }
    }
  });
}
