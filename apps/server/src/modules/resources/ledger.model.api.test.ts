import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts } from '#src/db/schema/resources';
import { buildTestApp, TestClient } from '#test/app';
import { createCompany, createUser, signedIn } from '#test/factories';
import { companyBalance } from '#test/resources';
import { resourcesRepository } from './resources.repository';

/**
 * The ledger against a model: random sequences of pools, moves, codes, redemptions,
 * cancellations and data purchases through the API, each checked against what a plain
 * map of balances says should happen; after every sequence, the ledger's invariants.
 */

const TYPES = [1, 2] as const;
type Code = { id: number; code: string; companyId: number; type: number; amount: number; open: boolean };

let app: FastifyInstance;
let root: TestClient;
let companies: number[];
const redeemers = new Map<number, TestClient>();

const balanceOf = (companyId: number, type: number | null) => companyBalance(app, companyId, type);

/** Issued to companies, minus what went back to the issuer; what every non-issuer account holds together. */
async function heldOutsideIssuer() {
  const [row] = await app.db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)` })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.kind} <> 'issuer' and ${ledgerAccounts.resourceTypeId} is not null`);
  return Number(row!.total);
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('pool' as const),
    to: fc.nat(2),
    type: fc.constantFrom(...TYPES),
    amount: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    from: fc.nat(2),
    to: fc.nat(2),
    type: fc.constantFrom(...TYPES),
    amount: fc.integer({ min: 1, max: 25 }),
  }),
  fc.record({
    kind: fc.constant('code' as const),
    from: fc.nat(2),
    type: fc.constantFrom(...TYPES),
    amount: fc.integer({ min: 1, max: 15 }),
  }),
  fc.record({ kind: fc.constant('redeem' as const), code: fc.nat(20), by: fc.nat(2) }),
  fc.record({ kind: fc.constant('cancel' as const), code: fc.nat(20) }),
  fc.record({
    kind: fc.constant('data' as const),
    company: fc.nat(2),
    credits: fc.integer({ min: 1, max: 12 }),
  }),
);

beforeAll(async () => {
  app = await buildTestApp({ CODE_RATE_LIMIT: '10000' });
  root = await new TestClient(app).login();
  const a = await createCompany(app, 'Model A');
  const b = await createCompany(app, 'Model B', a.id);
  const c = await createCompany(app, 'Model C');
  companies = [a.id, b.id, c.id];
  for (const [i, id] of companies.entries()) {
    await createUser(app, `redeemer${i}@model.test`, 'end_user', id);
    redeemers.set(id, await signedIn(app, `redeemer${i}@model.test`));
  }
});
afterAll(() => app?.close());

describe('the ledger against a model', () => {
  it('keeps every balance the model expects, never below zero, and every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const model = new Map<string, number>();
        const key = (company: number, type: number | null) => `${company}:${type}`;
        for (const company of companies)
          for (const type of [...TYPES, null]) model.set(key(company, type), await balanceOf(company, type));
        const codes: Code[] = [];
        let issued = await heldOutsideIssuer();

        for (const o of ops) {
          if (o.kind === 'pool') {
            const to = companies[o.to]!;
            const response = await root.post('/api/credits', {
              credit_type_id: o.type,
              credit_count: o.amount,
              company_id: to,
              ...(o.type === 2 ? { credit_price: 0.5, pro_form_nr: 'PF-model' } : {}),
            });
            expect(response.statusCode, response.body).toBe(200);
            model.set(key(to, o.type), model.get(key(to, o.type))! + o.amount);
            issued += o.amount;
          } else if (o.kind === 'move') {
            const [from, to] = [companies[o.from]!, companies[o.to]!];
            const response = await root.post('/api/credits/move', {
              credit_type_name: String(o.type),
              source: from,
              target: to,
              amount: o.amount,
            });
            const possible = from !== to && model.get(key(from, o.type))! >= o.amount;
            expect(response.statusCode, response.body).toBe(possible ? 200 : 400);
            if (possible) {
              model.set(key(from, o.type), model.get(key(from, o.type))! - o.amount);
              model.set(key(to, o.type), model.get(key(to, o.type))! + o.amount);
            }
          } else if (o.kind === 'code') {
            const from = companies[o.from]!;
            const response = await root.post('/api/credits/codes', {
              credit_type_name: String(o.type),
              company_id: from,
              amount: o.amount,
            });
            const possible = model.get(key(from, o.type))! >= o.amount;
            expect(response.statusCode, response.body).toBe(possible ? 200 : 400);
            if (possible) {
              const made = response.json().data as { id: number; code: string };
              codes.push({ ...made, companyId: from, type: o.type, amount: o.amount, open: true });
              model.set(key(from, o.type), model.get(key(from, o.type))! - o.amount);
            }
          } else if (o.kind === 'redeem') {
            const code = codes[o.code % Math.max(codes.length, 1)];
            if (!code) continue;
            const by = companies[o.by]!;
            const response = await redeemers
              .get(by)!
              .post('/api/credits/codes/activate', { code: code.code });
            const possible = code.open && by !== code.companyId;
            expect(response.statusCode, response.body).toBe(possible ? 200 : 400);
            if (possible) {
              code.open = false;
              model.set(key(by, code.type), model.get(key(by, code.type))! + code.amount);
            }
          } else if (o.kind === 'cancel') {
            const code = codes[o.code % Math.max(codes.length, 1)];
            if (!code) continue;
            const response = await root.delete(`/api/credits/codes/${code.id}`);
            expect(response.statusCode, response.body).toBe(code.open ? 200 : 400);
            if (code.open) {
              code.open = false;
              model.set(
                key(code.companyId, code.type),
                model.get(key(code.companyId, code.type))! + code.amount,
              );
            }
          } else {
            const company = companies[o.company]!;
            const credits = TYPES.reduce((sum, t) => sum + model.get(key(company, t))!, 0);
            const response = await root.post('/api/companies/data', {
              company_id: company,
              credits: o.credits,
            });
            const possible = credits >= o.credits;
            expect(response.statusCode, response.body).toBe(possible ? 200 : 400);
            if (possible) {
              let due = o.credits;
              for (const t of TYPES) {
                const take = Math.min(due, model.get(key(company, t))!);
                model.set(key(company, t), model.get(key(company, t))! - take);
                due -= take;
              }
              model.set(key(company, null), model.get(key(company, null))! + o.credits * 2 * 1024 ** 3);
              issued -= o.credits;
            }
          }
        }

        for (const [k, expected] of model) {
          const [company, type] = k.split(':');
          const actual = await balanceOf(Number(company), type === 'null' ? null : Number(type));
          expect(actual, k).toBe(expected);
          expect(actual).toBeGreaterThanOrEqual(0);
        }
        // Outside the issuer, units are created only by pools and leave only by buying data.
        expect(await heldOutsideIssuer()).toBe(issued);
        expect(await resourcesRepository.driftedAccounts(app.db)).toEqual([]);
        expect(await resourcesRepository.unbalancedEntries(app.db)).toEqual([]);
        const [all] = await app.db
          .select({ total: sql<string>`sum(${ledgerAccounts.balance})` })
          .from(ledgerAccounts);
        expect(Number(all!.total)).toBe(0);
      }),
      { numRuns: 12 },
    );
  });
});
