import { CREDIT_DATA_BYTES, GB, TRIAL_DATA_BYTES } from '@fleetgate/shared/resources';
import { count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerEntries, transferCodes } from '#src/db/schema/resources';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';
import { companyBalance, issuePool } from '#test/resources';
import { CODE_INVALID, newTransferCode, normaliseCode } from './resources.service';

let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let acmeClient: TestClient;
let northAdmin: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

const PAID_CREDITS = 2;
const FREE_CREDITS = 1;

async function ok(response: { statusCode: number; body: string; json(): unknown }) {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Record<string, unknown> }).data;
}

const balance = (companyId: number, type: number | null) => companyBalance(app, companyId, type);

const entries = async () => (await app.db.select({ n: count() }).from(ledgerEntries))[0]!.n;

const pool = async (companyId: number, amount: number, type = PAID_CREDITS) =>
  ok(await issuePool(root, companyId, type, amount));

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'client@acme.test', 'end_user', tree.acme.id);
  await createUser(app, 'admin@north.test', 'admin', tree.north.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acmeAdmin, acmeClient, northAdmin, betaAdmin] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'client@acme.test'),
    signedIn(app, 'admin@north.test'),
    signedIn(app, 'admin@beta.test'),
  ]);
});
afterAll(() => app?.close());

describe('the catalogue', () => {
  it('offers the super admin all fourteen types and everyone else the paid ones without “Paid”', async () => {
    const all = (await ok(await root.get('/api/credits/types'))) as unknown as { id: number; name: string }[];
    expect(all.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(all.find((t) => t.id === 2)?.name).toBe('Paid credits');
    const paid = (await ok(await acmeAdmin.get('/api/credits/types'))) as unknown as {
      id: number;
      name: string;
    }[];
    expect(paid.map((t) => t.id)).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(paid.find((t) => t.id === 2)?.name).toBe('Credits');
    expect(paid.every((t) => !/paid/i.test(t.name))).toBe(true);
  });
});

describe('a new company', () => {
  it('starts with 5 GB of trial data and shows its resources among its fields', async () => {
    const company = await createCompany(app, 'Trial Co', tree.acme.id);
    const shown = await ok(await root.get(`/api/companies/${company.id}`));
    expect(shown).toMatchObject({ credits_left: 0, packs_left: 0, remaining_data: TRIAL_DATA_BYTES });
    const history = (await ok(
      await root.get(`/api/credits?company_id=${company.id}&action=trial_data`),
    )) as unknown as {
      amount: number;
    }[];
    expect(history).toHaveLength(1);
    expect(history[0]!.amount).toBe(5 * GB);
  });
});

describe('pools (newPool)', () => {
  it('needs a price and a pro-forma number for a paid type, and keeps the price to the cent', async () => {
    const before = await entries();
    const missing = await root.post('/api/credits', {
      credit_type_id: PAID_CREDITS,
      credit_count: 10,
      company_id: tree.acme.id,
    });
    expect(missing.statusCode).toBe(400);
    expect(errorsOf(missing)).toContainEqual(
      expect.objectContaining({ source: 'credit_price', message: 'Credit price is required' }),
    );
    const noProForma = await root.post('/api/credits', {
      credit_type_id: PAID_CREDITS,
      credit_count: 10,
      company_id: tree.acme.id,
      credit_price: '0.10',
    });
    expect(errorsOf(noProForma)).toContainEqual(expect.objectContaining({ source: 'pro_form_nr' }));
    expect(await entries()).toBe(before);

    const made = await ok(
      await root.post('/api/credits', {
        credit_type_id: PAID_CREDITS,
        credit_count: 100,
        company_id: tree.acme.id,
        credit_price: 0.1,
        pro_form_nr: 'PF-2026-001',
      }),
    );
    expect(made).toMatchObject({
      action: 'pool',
      amount: 100,
      credit_price: '0.10',
      pro_form_nr: 'PF-2026-001',
    });
    expect(made.target_company_name).toBe('Acme');
    expect(await balance(tree.acme.id, PAID_CREDITS)).toBe(100);
  });

  it('takes a free type without a price', async () => {
    const made = await ok(
      await root.post('/api/credits', {
        credit_type_id: FREE_CREDITS,
        credit_count: 5,
        company_id: tree.beta.id,
      }),
    );
    expect(made).toMatchObject({ credit_type_name: 'Free credits', credit_price: null });
  });

  it.each([
    [{ credit_count: -1 }, 'credit_count', 'Resource count must be at least 1'],
    [{ credit_count: '-1' }, 'credit_count', 'Resource count must contain digits only'],
    [{ credit_count: 0 }, 'credit_count', 'Resource count must be at least 1'],
    [{ credit_count: 1.5 }, 'credit_count', 'Resource count must be a whole number'],
    [{ credit_count: 10 ** 12 }, 'credit_count', 'Resource count must be at most 12 digits'],
    [{ credit_count: 'ten' }, 'credit_count', 'Resource count must contain digits only'],
    [{ credit_price: 0.005 }, 'credit_price', 'Credit price must be in steps of 0.01'],
    [{ credit_price: -1 }, 'credit_price', 'Credit price must be at least 0'],
    [{ credit_type_id: 15 }, 'credit_type_id', 'Resource type not found'],
    [{ bonus: 1 }, 'bonus', 'Unknown field: bonus'],
  ])('refuses %o with the words of the check, changing nothing', async (change, source, message) => {
    const before = await entries();
    const response = await root.post('/api/credits', {
      credit_type_id: PAID_CREDITS,
      credit_count: 3,
      company_id: tree.acme.id,
      credit_price: 1,
      pro_form_nr: 'PF',
      ...change,
    });
    expect(errorsOf(response)).toContainEqual(expect.objectContaining({ source, message }));
    expect(await entries()).toBe(before);
  });

  it('is the super admin’s alone', async () => {
    const response = await acmeAdmin.post('/api/credits', {
      credit_type_id: PAID_CREDITS,
      credit_count: 3,
      company_id: tree.acme.id,
      credit_price: 1,
      pro_form_nr: 'PF',
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('moves (movePools)', () => {
  it('move credits down two levels and show them in each company’s fields', async () => {
    await pool(tree.acme.id, 20);
    const acmeBefore = await balance(tree.acme.id, PAID_CREDITS);
    const northBefore = await balance(tree.north.id, PAID_CREDITS);
    const moved = await ok(
      await acmeAdmin.post('/api/credits/move', {
        credit_type_name: 'Credits',
        source: tree.acme.id,
        target: tree.north.id,
        amount: '7',
      }),
    );
    expect(moved).toMatchObject({
      action: 'move',
      amount: 7,
      source_company_name: 'Acme',
      target_company_name: 'Acme North',
    });
    expect(await balance(tree.acme.id, PAID_CREDITS)).toBe(acmeBefore - 7);
    expect(await balance(tree.north.id, PAID_CREDITS)).toBe(northBefore + 7);
    const north = await ok(await acmeAdmin.get(`/api/companies/${tree.north.id}`));
    expect(north.credits_left).toBe(northBefore + 7);
  });

  it('refuses to go below zero, naming what is left', async () => {
    const left = await balance(tree.north.id, PAID_CREDITS);
    const response = await northAdmin.post('/api/credits/move', {
      credit_type_name: 'Credits',
      source: tree.north.id,
      target: tree.north.id + 1_000_000,
      amount: left + 1,
    });
    expect(response.statusCode).toBe(404);
    const over = await acmeAdmin.post('/api/credits/move', {
      credit_type_name: 'Credits',
      source: tree.north.id,
      target: tree.acme.id,
      amount: left + 1,
    });
    expect(errorsOf(over)).toContainEqual({
      code: 'VALIDATION_ERROR',
      source: 'amount',
      message: `Not enough credits: ${left} left`,
    });
    expect(await balance(tree.north.id, PAID_CREDITS)).toBe(left);
  });

  it('never leaves the caller’s subtree and never names a free type for an admin', async () => {
    const outside = await acmeAdmin.post('/api/credits/move', {
      credit_type_name: 'Credits',
      source: tree.acme.id,
      target: tree.beta.id,
      amount: 1,
    });
    expect(outside.statusCode).toBe(404);
    const up = await northAdmin.post('/api/credits/move', {
      credit_type_name: 'Credits',
      source: tree.north.id,
      target: tree.acme.id,
      amount: 1,
    });
    expect(up.statusCode).toBe(404);
    const free = await acmeAdmin.post('/api/credits/move', {
      credit_type_name: 'Free credits',
      source: tree.acme.id,
      target: tree.north.id,
      amount: 1,
    });
    expect(errorsOf(free)).toContainEqual(
      expect.objectContaining({ source: 'credit_type_name', message: 'Resource type not found' }),
    );
    const same = await acmeAdmin.post('/api/credits/move', {
      credit_type_name: 'Credits',
      source: tree.acme.id,
      target: tree.acme.id,
      amount: 1,
    });
    expect(same.statusCode).toBe(400);
    expect(
      (
        await acmeClient.post('/api/credits/move', {
          credit_type_name: 'Credits',
          source: tree.acme.id,
          target: tree.north.id,
          amount: 1,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('50 parallel moves that together exceed the pool leave it at zero, never below', async () => {
    const company = await createCompany(app, 'Race Co', tree.acme.id);
    await pool(company.id, 30);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        root.post('/api/credits/move', {
          credit_type_name: 'Paid credits',
          source: company.id,
          target: tree.acme.id,
          amount: 1,
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(30);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(20);
    expect(await balance(company.id, PAID_CREDITS)).toBe(0);
  });
});

describe('transfer codes', () => {
  async function newCode(client: TestClient, body: Record<string, unknown>) {
    return (await ok(await client.post('/api/credits/codes', body))) as {
      id: number;
      code: string;
      used: boolean;
    };
  }

  it('carry credits from one company to another, once', async () => {
    await pool(tree.acme.id, 10);
    const acmeBefore = await balance(tree.acme.id, PAID_CREDITS);
    const betaBefore = await balance(tree.beta.id, PAID_CREDITS);
    const code = await newCode(acmeAdmin, { credit_type_name: 'Credits', amount: '4', comment: 'For Beta' });
    expect(code.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(code.used).toBe(false);
    expect(await balance(tree.acme.id, PAID_CREDITS)).toBe(acmeBefore - 4);

    const listed = (await ok(await acmeAdmin.get('/api/credits/codes?used=false'))) as unknown as {
      id: number;
      code: string;
    }[];
    expect(listed.find((c) => c.id === code.id)?.code).toBe(code.code);

    const redeemed = await ok(
      await betaAdmin.post('/api/credits/codes/activate', { code: code.code.toLowerCase() }),
    );
    expect(redeemed).toMatchObject({ company_id: tree.beta.id, credit_type: PAID_CREDITS, amount: 4 });
    expect(await balance(tree.beta.id, PAID_CREDITS)).toBe(betaBefore + 4);

    const again = await betaAdmin.post('/api/credits/codes/activate', { code: code.code });
    expect(errorsOf(again)).toEqual([{ code: 'VALIDATION_ERROR', source: 'code', message: CODE_INVALID }]);
    const usedNow = (await ok(await acmeAdmin.get(`/api/credits/codes?used=true`))) as unknown as {
      id: number;
      used: boolean;
    }[];
    expect(usedNow.find((c) => c.id === code.id)?.used).toBe(true);
    // Beta cannot read Acme's code, and Acme's history does not name Beta.
    expect(((await ok(await betaAdmin.get('/api/credits/codes'))) as unknown as unknown[]).length).toBe(0);
    const history = (await ok(await acmeAdmin.get(`/api/credits?action=code_redeem`))) as unknown as {
      code_id: number;
      target_company_name: string | null;
    }[];
    expect(history.find((m) => m.code_id === code.id)?.target_company_name).toBeNull();
  });

  it('are never stored readable', async () => {
    const code = await newCode(acmeAdmin, { credit_type_name: 'Credits', amount: 1 });
    const [row] = await app.db.select().from(transferCodes).where(eq(transferCodes.id, code.id));
    expect(JSON.stringify(row)).not.toContain(normaliseCode(code.code));
    expect(JSON.stringify(row)).not.toContain(code.code);
  });

  it('are refused into the company that made them, and the super admin alone picks “From company”', async () => {
    const code = await newCode(acmeAdmin, { credit_type_name: 'Credits', amount: 1 });
    const own = await acmeClient.post('/api/credits/codes/activate', { code: code.code });
    expect(errorsOf(own)).toContainEqual(
      expect.objectContaining({ message: 'A code cannot be activated by the company that created it' }),
    );
    const chosen = await acmeAdmin.post('/api/credits/codes', {
      credit_type_name: 'Credits',
      amount: 1,
      company_id: tree.north.id,
    });
    expect(chosen.statusCode).toBe(403);
    const bySuper = await newCode(root, {
      credit_type_name: 'Paid credits',
      amount: 1,
      company_id: tree.acme.id,
    });
    expect(
      (await ok(await root.get(`/api/credits/codes?company_id=${tree.acme.id}`))) as unknown as {
        id: number;
      }[],
    ).toContainEqual(expect.objectContaining({ id: bySuper.id, company_id: tree.acme.id }));
  });

  it('cancelled, give their resources back and can no longer be redeemed', async () => {
    const before = await balance(tree.acme.id, PAID_CREDITS);
    const code = await newCode(acmeAdmin, { credit_type_name: 'Credits', amount: 2 });
    const cancelled = await ok(await acmeAdmin.delete(`/api/credits/codes/${code.id}`));
    expect(cancelled).toMatchObject({ cancelled: true, used: false });
    expect(await balance(tree.acme.id, PAID_CREDITS)).toBe(before);
    const redeem = await betaAdmin.post('/api/credits/codes/activate', { code: code.code });
    expect(errorsOf(redeem)[0]?.message).toBe(CODE_INVALID);
    expect((await betaAdmin.delete(`/api/credits/codes/${code.id}`)).statusCode).toBe(404);
    expect((await acmeAdmin.delete(`/api/credits/codes/${code.id}`)).statusCode).toBe(400);
  });

  it('refuse amounts that are not 1..12 digits and comments over 200 characters', async () => {
    for (const [amount, message] of [
      ['0', 'Amount must be at least 1'],
      ['1.5', 'Amount must contain digits only'],
      ['1234567890123', 'Amount must be at most 12 digits'],
      ['-3', 'Amount must contain digits only'],
    ] as const) {
      const response = await acmeAdmin.post('/api/credits/codes', { credit_type_name: 'Credits', amount });
      expect(errorsOf(response), amount).toContainEqual(
        expect.objectContaining({ source: 'amount', message }),
      );
    }
    const long = await acmeAdmin.post('/api/credits/codes', {
      credit_type_name: 'Credits',
      amount: 1,
      comment: 'x'.repeat(201),
    });
    expect(errorsOf(long)).toContainEqual(
      expect.objectContaining({ message: 'Comment must be at most 200 characters' }),
    );
  });

  it('50 parallel redemptions of one code: exactly one succeeds', async () => {
    const code = await newCode(acmeAdmin, { credit_type_name: 'Credits', amount: 3 });
    const racers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        await createUser(app, `racer${i}@beta.test`, 'end_user', tree.beta.id);
        return signedIn(app, `racer${i}@beta.test`);
      }),
    );
    const before = await balance(tree.beta.id, PAID_CREDITS);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        racers[i % 5]!.post('/api/credits/codes/activate', { code: code.code }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(
      results.filter((r) => r.statusCode !== 200).every((r) => errorsOf(r)[0]?.message === CODE_INVALID),
    ).toBe(true);
    expect(await balance(tree.beta.id, PAID_CREDITS)).toBe(before + 3);
  });

  it('a guessed code answers as a used one, and guessing is limited per user and address', async () => {
    await createUser(app, 'guesser@beta.test', 'end_user', tree.beta.id);
    const guesser = await signedIn(app, 'guesser@beta.test');
    const first = await guesser.post('/api/credits/codes/activate', { code: newTransferCode() });
    expect(first.statusCode).toBe(400);
    expect(errorsOf(first)).toEqual([{ code: 'VALIDATION_ERROR', source: 'code', message: CODE_INVALID }]);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await guesser.post('/api/credits/codes/activate', { code: newTransferCode() })).statusCode,
      );
    expect(statuses.slice(0, 9).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(9).every((s) => s === 429)).toBe(true);
  });
});

describe('quotas set by a parent', () => {
  it('hold a subsidiary’s own users to what they may pass on, down or into codes, under races too', async () => {
    const company = await createCompany(app, 'Quota Co', tree.acme.id);
    const below = await createCompany(app, 'Quota Child', company.id);
    await createUser(app, 'admin@quota.test', 'admin', company.id);
    const quotaAdmin = await signedIn(app, 'admin@quota.test');
    await pool(company.id, 100);
    const set = await acmeAdmin.put(`/api/companies/${company.id}/quotas`, {
      credit_type_name: 'Credits',
      cap: 12,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual([
      { credit_type: 2, credit_type_name: 'Credits', cap: 12, moved: 0, left: 12 },
    ]);
    expect(
      (await quotaAdmin.put(`/api/companies/${company.id}/quotas`, { credit_type_name: 'Credits', cap: 99 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await betaAdmin.put(`/api/companies/${company.id}/quotas`, { credit_type_name: 'Credits', cap: 99 }))
        .statusCode,
    ).toBe(404);

    const moveDown = (amount: number) =>
      quotaAdmin.post('/api/credits/move', {
        credit_type_name: 'Credits',
        source: company.id,
        target: below.id,
        amount,
      });
    const results = await Promise.all(Array.from({ length: 15 }, () => moveDown(1)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(12);
    expect(errorsOf(results.find((r) => r.statusCode !== 200)!)).toContainEqual(
      expect.objectContaining({
        source: 'amount',
        message: 'Your company’s quota allows passing on 0 more of this type',
      }),
    );
    const code = await quotaAdmin.post('/api/credits/codes', { credit_type_name: 'Credits', amount: 1 });
    expect(code.statusCode).toBe(400);
    expect(await balance(below.id, PAID_CREDITS)).toBe(12);
    // The parent and the super admin are not held by it, and moving up is not passing on.
    expect(
      (
        await acmeAdmin.post('/api/credits/move', {
          credit_type_name: 'Credits',
          source: company.id,
          target: below.id,
          amount: 5,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await quotaAdmin.post('/api/credits/move', {
          credit_type_name: 'Credits',
          source: below.id,
          target: company.id,
          amount: 1,
        })
      ).statusCode,
    ).toBe(200);

    expect(
      (
        await acmeAdmin.put(`/api/companies/${company.id}/quotas`, { credit_type_name: 'Credits', cap: null })
      ).json().data,
    ).toEqual([]);
    expect((await moveDown(3)).statusCode).toBe(200);
    for (const cap of [-1, 1.5, 'ten', 10 ** 12]) {
      const bad = await acmeAdmin.put(`/api/companies/${company.id}/quotas`, {
        credit_type_name: 'Credits',
        cap,
      });
      expect(bad.statusCode, String(cap)).toBe(400);
    }
  });
});

describe('company data (buyData)', () => {
  it('spends credits for 2 GB each, free ones first, and grows remaining_data', async () => {
    const company = await createCompany(app, 'Data Co', tree.acme.id);
    await pool(company.id, 2, FREE_CREDITS);
    await pool(company.id, 5, PAID_CREDITS);
    const bought = await ok(
      await acmeAdmin.post('/api/companies/data', { company_id: company.id, credits: '0003' }),
    );
    expect(bought).toMatchObject({
      credits: 3,
      data_bytes: 3 * CREDIT_DATA_BYTES,
      remaining_data: TRIAL_DATA_BYTES + 3 * CREDIT_DATA_BYTES,
    });
    expect(await balance(company.id, FREE_CREDITS)).toBe(0);
    expect(await balance(company.id, PAID_CREDITS)).toBe(4);
    const shown = await ok(await acmeAdmin.get(`/api/companies/${company.id}`));
    expect(shown.remaining_data).toBe(TRIAL_DATA_BYTES + 3 * CREDIT_DATA_BYTES);

    const over = await acmeAdmin.post('/api/companies/data', { company_id: company.id, credits: 5 });
    expect(errorsOf(over)).toContainEqual(
      expect.objectContaining({ source: 'credits', message: 'Not enough credits: 4 left' }),
    );
    for (const credits of ['0', 'abc', '123456789012345', '-1'])
      expect(
        (await acmeAdmin.post('/api/companies/data', { company_id: company.id, credits })).statusCode,
        credits,
      ).toBe(400);
    expect(
      (await betaAdmin.post('/api/companies/data', { company_id: company.id, credits: 1 })).statusCode,
    ).toBe(404);
    expect(await balance(company.id, PAID_CREDITS)).toBe(4);
  });
});

describe('reading resources', () => {
  it('the summary of the caller’s company, and each company’s balances', async () => {
    const summary = await ok(await acmeAdmin.get('/api/credits/summary'));
    const left = (summary.credits as { left: { credit_type: number; credits_left: number }[] }).left;
    expect(left.find((e) => e.credit_type === PAID_CREDITS)?.credits_left).toBe(
      await balance(tree.acme.id, PAID_CREDITS),
    );
    const balances = await ok(await acmeAdmin.get(`/api/companies/${tree.north.id}/resources`));
    expect(balances.credits_left).toBe(await balance(tree.north.id, PAID_CREDITS));
    expect((await betaAdmin.get(`/api/companies/${tree.north.id}/resources`)).statusCode).toBe(404);
  });

  it('the history shows only the caller’s companies’ movements', async () => {
    const beta = (await ok(await betaAdmin.get('/api/credits?limit=100'))) as unknown as {
      source_company_id: number | null;
      target_company_id: number | null;
    }[];
    expect(beta.length).toBeGreaterThan(0);
    expect(
      beta.every((m) => m.source_company_id === tree.beta.id || m.target_company_id === tree.beta.id),
    ).toBe(true);
  });

  it('the credit report is CSV of the period', async () => {
    const response = await acmeAdmin.get(`/api/credits/report?from=2000-01-01&to=2999-01-01`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,action,resource_type,amount,data_bytes,from_company,to_company,credit_price,pro_form_nr,comment,user',
    );
    expect(lines.some((l) => l.includes(',move,Credits,7,'))).toBe(true);
    const empty = await acmeAdmin.get(`/api/credits/report?from=2000-01-01&to=2000-01-02`);
    expect(empty.body.trim().split('\r\n')).toHaveLength(1);
  });

  it('a company that still holds resources is not removed', async () => {
    const company = await createCompany(app, 'Holding Co', tree.acme.id);
    await pool(company.id, 1);
    const response = await root.delete(`/api/companies/${company.id}`);
    expect(response.statusCode).toBe(409);
    expect(errorsOf(response)[0]?.message).toContain('1 resource');
  });
});

describe('the ledger', () => {
  it('every balance equals its postings and every entry sums to zero', async () => {
    const { resourcesRepository } = await import('./resources.repository');
    expect(await resourcesRepository.driftedAccounts(app.db)).toEqual([]);
    expect(await resourcesRepository.unbalancedEntries(app.db)).toEqual([]);
    const [sum] = await app.db
      .select({ total: sql<string>`sum(${ledgerAccounts.balance})` })
      .from(ledgerAccounts);
    expect(Number(sum!.total)).toBe(0);
  });

  it('refuses an unbalanced entry at commit, whoever writes it', async () => {
    await expect(
      app.db.transaction(async (tx) => {
        const [entry] = await tx.insert(ledgerEntries).values({ action: 'pool', amount: 1 }).returning();
        const [account] = await tx.select().from(ledgerAccounts).limit(1);
        await tx.execute(
          sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry!.id}, ${account!.id}, 1)`,
        );
      }),
    ).rejects.toThrow();
  });
});
