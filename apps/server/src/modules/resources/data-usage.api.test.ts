import { GB, TRIAL_DATA_BYTES } from '@fleetgate/shared/resources';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '#src/db/schema/notifications';
import { buildTestApp, TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';
import { spendData } from './data-usage.service';

/**
 * Company data spent on relayed traffic. Remote access and VPN are not built yet, so the
 * tests call the posting function as they will, as a test double of the relaying feature.
 */
let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let acmeClient: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

const spend = (
  companyId: number,
  bytes: number,
  extra: { deviceId?: number; purpose?: 'remote_access' | 'vpn'; at?: Date } = {},
) =>
  spendData(
    { db: app.db, notifications: app.notifications },
    { companyId, bytes, purpose: extra.purpose ?? 'remote_access', ...extra },
  );

const lowNotes = async (userId: number) =>
  app.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'creditAmountTooLow')));

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'client@acme.test', 'end_user', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acmeAdmin, acmeClient, betaAdmin] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'client@acme.test'),
    signedIn(app, 'admin@beta.test'),
  ]);
});
afterAll(() => app?.close());

describe('company data spent', () => {
  it('is taken from the company’s data, per day, device and purpose', async () => {
    const company = await createCompany(app, 'Spender', tree.acme.id);
    const device = await registerDirect(app, testIdentity(), company.id);
    const day = new Date('2026-11-20T10:00:00Z');
    await spend(company.id, GB, { deviceId: device.id, at: day });
    await spend(company.id, GB / 2, { deviceId: device.id, at: day });
    await spend(company.id, GB / 4, { purpose: 'vpn', at: day });
    const shown = (await acmeAdmin.get(`/api/companies/${company.id}`)).json().data;
    expect(shown.remaining_data).toBe(TRIAL_DATA_BYTES - GB - GB / 2 - GB / 4);

    const history = await acmeAdmin.get(`/api/credits/data-history?company_id=${company.id}`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data).toEqual([
      expect.objectContaining({ day: '2026-11-20', device_id: null, purpose: 'vpn', bytes: GB / 4 }),
      expect.objectContaining({
        day: '2026-11-20',
        device_id: device.id,
        device_name: device.name,
        purpose: 'remote_access',
        bytes: GB + GB / 2,
        unpaid_bytes: 0,
      }),
    ]);
    const spent = (await acmeAdmin.get(`/api/credits?company_id=${company.id}&action=spend_data`)).json();
    expect(spent.meta.total).toBe(3);
  });

  it('keeps traffic past the end of the data as unpaid, and tells the company’s users once a day', async () => {
    const company = await createCompany(app, 'Runner', tree.acme.id);
    const user = await createUser(app, 'user@runner.test', 'end_user', company.id);
    const result = await spend(company.id, TRIAL_DATA_BYTES + GB);
    expect(result).toEqual({ charged: TRIAL_DATA_BYTES, unpaid: GB, remaining: 0 });
    await spend(company.id, GB);
    const notes = await lowNotes(user.id);
    expect(notes.map((n) => n.summary).sort()).toEqual([
      'Company data is running low: 0 MB left',
      'Credits are running low: 0 left',
    ]);
    const [row] = (await acmeAdmin.get(`/api/credits/data-history?company_id=${company.id}`)).json().data;
    expect(row).toMatchObject({ bytes: TRIAL_DATA_BYTES + 2 * GB, unpaid_bytes: 2 * GB });
  });

  it('refuses a count of bytes that is not a positive whole number', async () => {
    await expect(spend(tree.acme.id, 0)).rejects.toThrow();
    await expect(spend(tree.acme.id, 1.5)).rejects.toThrow();
  });

  it('the overview forecasts the day the data runs out at the last 30 days’ pace', async () => {
    const company = await createCompany(app, 'Pacer', tree.acme.id);
    const now = new Date();
    await spend(company.id, 3 * GB, { at: new Date(now.getTime() - 5 * 86_400_000) });
    const response = await acmeAdmin.get('/api/credits/data-overview?limit=100');
    expect(response.statusCode, response.body).toBe(200);
    const row = (response.json().data as { company_id: number }[]).find((r) => r.company_id === company.id);
    const daily = Math.round((3 * GB) / 30);
    expect(row).toMatchObject({ remaining_data: 2 * GB, spent_30_days: 3 * GB, daily_average: daily });
    const expected = new Date(now.getTime() + Math.floor((2 * GB) / daily) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect((row as unknown as { runs_out_on: string }).runs_out_on).toBe(expected);
    const idle = (response.json().data as { company_id: number; runs_out_on: string | null }[]).find(
      (r) => r.company_id === tree.north.id,
    );
    expect(idle?.runs_out_on).toBeNull();
  });

  it('shows each tenant its own companies only', async () => {
    const beta = (await betaAdmin.get('/api/credits/data-history?limit=100')).json().data as {
      company_id: number;
    }[];
    expect(beta.every((r) => r.company_id === tree.beta.id)).toBe(true);
    const overview = (await betaAdmin.get('/api/credits/data-overview')).json().data as {
      company_id: number;
    }[];
    expect(overview.map((r) => r.company_id)).toEqual([tree.beta.id]);
    expect((await acmeClient.get('/api/credits/data-history')).statusCode).toBe(403);
    expect((await root.get('/api/credits/data-history?from=2026-13-01')).statusCode).toBe(400);
  });

  it('credits falling below five after a move tell the source company’s users', async () => {
    const company = await createCompany(app, 'Low Co', tree.acme.id);
    const user = await createUser(app, 'user@lowco.test', 'end_user', company.id);
    await root.post('/api/credits', {
      credit_type_id: 2,
      credit_count: 6,
      company_id: company.id,
      credit_price: 1,
      pro_form_nr: 'PF',
    });
    await root.post('/api/credits/move', {
      credit_type_name: 'Paid credits',
      source: company.id,
      target: tree.acme.id,
      amount: 1,
    });
    expect((await lowNotes(user.id)).map((n) => n.summary)).not.toContain('Credits are running low: 5 left');
    await root.post('/api/credits/move', {
      credit_type_name: 'Paid credits',
      source: company.id,
      target: tree.acme.id,
      amount: 2,
    });
    expect((await lowNotes(user.id)).map((n) => n.summary)).toContain('Credits are running low: 3 left');
  });
});
