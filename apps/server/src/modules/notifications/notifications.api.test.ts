import { notificationsChannel } from '@fleetgate/shared/events';
import { NOTIFICATION_MARK_MAX, type WebNotification } from '@fleetgate/shared/schemas/notifications';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import {
  cookieHeader,
  listenLocally,
  nextChannelEvent,
  opened,
  subscribe,
  testSocket,
} from '#src/realtime/socket-test-client';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

type ListBody = { data: WebNotification[]; meta: { total: number; unseen: number } };

let app: FastifyInstance;
let admin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const ids = { acmeAdmin: 0, acmeClient: 0, northClient: 0, betaClient: 0 };
let acmeClient: TestClient;
let northClient: TestClient;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  ids.acmeAdmin = (await createUser(app, 'n.acme.admin@example.test', 'admin', tree.acme.id)).id;
  ids.acmeClient = (await createUser(app, 'n.acme.client@example.test', 'end_user', tree.acme.id)).id;
  ids.northClient = (await createUser(app, 'n.north.client@example.test', 'end_user', tree.north.id)).id;
  ids.betaClient = (await createUser(app, 'n.beta.client@example.test', 'end_user', tree.beta.id)).id;
  admin = await new TestClient(app).login();
  acmeClient = await signedIn(app, 'n.acme.client@example.test');
  northClient = await signedIn(app, 'n.north.client@example.test');
});

afterAll(async () => {
  await app.close();
});

const list = async (client: TestClient, query = '') => {
  const response = await client.get(`/api/notifications${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as ListBody;
};

const send = (body: Record<string, unknown>, client = admin) => client.post('/api/notifications', body);

describe('GET /api/notifications (product §7)', () => {
  it('a new user has none: empty list, total 0, unseen 0', async () => {
    const body = await list(await signedIn(app, 'n.beta.client@example.test'));
    expect(body.data).toEqual([]);
    expect(body.meta).toEqual({ total: 0, unseen: 0 });
  });

  it('needs a session', async () => {
    const response = await new TestClient(app).get('/api/notifications');
    expect(response.statusCode).toBe(401);
  });

  it('lists only the caller’s, newest first, paged by limit and offset, with total and unseen', async () => {
    for (const n of [1, 2, 3]) {
      expect((await send({ user_id: ids.northClient, summary: `North ${n}` })).statusCode).toBe(200);
    }
    await send({ user_id: ids.acmeClient, summary: 'Only for Acme client' });

    const first = await list(northClient, '?limit=2');
    expect(first.data.map((n) => n.summary)).toEqual(['North 3', 'North 2']);
    expect(first.meta).toEqual({ total: 3, unseen: 3 });
    const second = await list(northClient, '?limit=2&offset=2');
    expect(second.data.map((n) => n.summary)).toEqual(['North 1']);
    expect(second.data[0]).toMatchObject({ type: 'message', seen_at: null, data: null });
    expect(Date.parse(second.data[0]!.created_at)).not.toBeNaN();

    const acme = await list(acmeClient);
    expect(acme.data.map((n) => n.summary)).toEqual(['Only for Acme client']);
  });

  it('refuses paging outside the limits', async () => {
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc']) {
      const response = await northClient.get(`/api/notifications${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(errorsOf(response)[0]?.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('PUT /api/notifications (product §4 Notification: unseen becomes seen)', () => {
  it('marks the caller’s unseen ones seen; the unseen count drops; a repeat changes nothing', async () => {
    const before = await list(northClient);
    const unseen = before.data.filter((n) => n.seen_at === null).map((n) => n.id);
    const response = await northClient.put('/api/notifications', { id: unseen.slice(0, 2) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ updated: 2 });

    const after = await list(northClient);
    expect(after.meta).toEqual({ total: 3, unseen: 1 });
    expect(after.data.filter((n) => unseen.slice(0, 2).includes(n.id)).every((n) => n.seen_at)).toBe(true);

    const again = await northClient.put('/api/notifications', { id: unseen.slice(0, 2) });
    expect(again.json().data).toEqual({ updated: 0 });
  });

  it("another user's ids are silently left alone (not marked, not revealed)", async () => {
    const acmeIds = (await list(acmeClient)).data.map((n) => n.id);
    const response = await northClient.put('/api/notifications', { id: [...acmeIds, 999_999] });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ updated: 0 });
    const acme = await list(acmeClient);
    expect(acme.meta.unseen).toBe(acmeIds.length);
    expect(acme.data.every((n) => n.seen_at === null)).toBe(true);
  });

  it('refuses hostile bodies with a field error', async () => {
    const bodies: unknown[] = [
      {},
      { id: [] },
      { id: 'all' },
      { id: [1, 'x'] },
      { id: [0] },
      { id: [-3] },
      { id: [1.5] },
      { id: { $in: [1] } },
      { id: [1], user_id: ids.acmeClient },
      { id: Array.from({ length: NOTIFICATION_MARK_MAX + 1 }, (_, i) => i + 1) },
      [1, 2],
    ];
    for (const body of bodies) {
      const response = await northClient.put('/api/notifications', body as Record<string, unknown>);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorsOf(response)[0]?.code).toBe('VALIDATION_ERROR');
    }
  });

  it('needs the XSRF token like every unsafe call', async () => {
    const response = await northClient.put('/api/notifications', { id: [1] }, { 'x-xsrf-token': 'wrong' });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/notifications (super admin messages customers)', () => {
  it('only the super admin may send', async () => {
    const acmeAdmin = await signedIn(app, 'n.acme.admin@example.test');
    const response = await send({ user_id: ids.acmeClient, summary: 'Hi' }, acmeAdmin);
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]?.code).toBe('FORBIDDEN');
    expect((await send({ user_id: ids.acmeClient, summary: 'Hi' }, acmeClient)).statusCode).toBe(403);
  });

  it('to a company reaches every user of it and the companies under it, and is audited', async () => {
    const summary = 'Maintenance tonight for Acme';
    const response = await send({ company_id: tree.acme.id, summary, type: 'message' });
    expect(response.statusCode).toBe(200);
    // Acme admin, Acme client, North client; not Beta.
    expect(response.json()).toMatchObject({
      data: { recipients: 3 },
      message: 'Notification sent successfully',
    });
    expect((await list(northClient)).data[0]?.summary).toBe(summary);
    const beta = await list(await signedIn(app, 'n.beta.client@example.test'));
    expect(beta.data.some((n) => n.summary === summary)).toBe(false);

    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'notification.send'), eq(auditLog.targetType, 'company')));
    expect(audit).toMatchObject({ targetId: String(tree.acme.id), companyId: tree.acme.id });
    expect(audit?.details).toMatchObject({ type: 'message', summary, recipients: 3 });
  });

  it('a creditAmountTooLow notice keeps its type', async () => {
    await send({ user_id: ids.acmeClient, summary: 'Resources are running low', type: 'creditAmountTooLow' });
    expect((await list(acmeClient)).data[0]).toMatchObject({
      type: 'creditAmountTooLow',
      summary: 'Resources are running low',
    });
  });

  it('an unknown user or company answers 404', async () => {
    expect((await send({ user_id: 999_999, summary: 'x' })).statusCode).toBe(404);
    expect((await send({ company_id: 999_999, summary: 'x' })).statusCode).toBe(404);
  });

  it('refuses hostile bodies', async () => {
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ summary: 'No target' }, 'user_id'],
      [{ summary: 'Both', user_id: ids.acmeClient, company_id: tree.acme.id }, 'user_id'],
      [{ user_id: ids.acmeClient }, 'summary'],
      [{ user_id: ids.acmeClient, summary: '   ' }, 'summary'],
      [{ user_id: ids.acmeClient, summary: 'x'.repeat(501) }, 'summary'],
      [{ user_id: ids.acmeClient, summary: 'x', type: 'script' }, 'type'],
      [{ user_id: '1 or 1=1', summary: 'x' }, 'user_id'],
      [{ user_id: ids.acmeClient, summary: 'x', data: { html: '<b>' } }, 'data'],
    ];
    for (const [body, source] of cases) {
      const response = await send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorsOf(response).map((e) => e.source)).toContain(source);
    }
  });

  it('stores a summary as plain text: markup is kept as typed, never interpreted', async () => {
    const summary = '<img src=x onerror=alert(1)> & "quotes"';
    await send({ user_id: ids.acmeClient, summary });
    expect((await list(acmeClient)).data[0]?.summary).toBe(summary);
  });
});

describe('live delivery (product §4 Socket, §7 WebNotificationCreated)', () => {
  it('a notification sent to a user reaches their connected socket; another user’s socket gets nothing', async () => {
    const url = await listenLocally(app);
    const mine = testSocket(url, { cookie: cookieHeader(acmeClient.cookies) });
    const theirs = testSocket(url, { cookie: cookieHeader(northClient.cookies) });
    try {
      await Promise.all([opened(mine), opened(theirs)]);
      expect(await subscribe(mine, notificationsChannel(ids.acmeClient))).toEqual({ ok: true });
      expect(await subscribe(theirs, notificationsChannel(ids.northClient))).toEqual({ ok: true });

      const received = nextChannelEvent(mine, 'WebNotificationCreated', notificationsChannel(ids.acmeClient));
      const leaked = nextChannelEvent(
        theirs,
        'WebNotificationCreated',
        notificationsChannel(ids.acmeClient),
        500,
      );
      const stray = new Promise<boolean>((resolve) => {
        theirs.once('WebNotificationCreated', () => resolve(true));
        setTimeout(() => resolve(false), 500);
      });
      expect((await send({ user_id: ids.acmeClient, summary: 'Live one' })).statusCode).toBe(200);
      const payload = await received;
      expect(payload).toMatchObject({ summary: 'Live one', type: 'message', seen_at: null });
      expect((await list(acmeClient)).data[0]?.id).toBe(payload.id);
      await expect(leaked).rejects.toThrow();
      expect(await stray).toBe(false);
    } finally {
      mine.disconnect();
      theirs.disconnect();
    }
  });
});

describe('notify service', () => {
  it('skips unknown users and duplicates, and an unknown company notifies nobody', async () => {
    const sent = await app.notifications.notify([ids.betaClient, ids.betaClient, 999_999], {
      type: 'message',
      summary: 'From a service',
    });
    expect(sent.map((n) => n.summary)).toEqual(['From a service']);
    expect(
      await app.notifications.notify({ companySubtree: 999_999 }, { type: 'message', summary: 'x' }),
    ).toEqual([]);
  });
});
