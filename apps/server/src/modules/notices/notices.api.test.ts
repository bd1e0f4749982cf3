import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let admin: TestClient;

beforeAll(async () => {
  app = await buildTestApp();
  const tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'acme.guest@x.test', 'read_only', tree.acme.id);
  admin = await new TestClient(app).login();
});
afterAll(() => app.close());

type AdminNotice = { id: number; type: string; message: string; enabled_at: string | null; status: string };

async function create(body: Record<string, unknown>): Promise<AdminNotice> {
  const response = await admin.post('/api/admin/notices', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('global notices administration (product §3 Global notice, §4, permission admin_view_notice)', () => {
  it('successful-notice-creation: a new notice without a time is disabled and not shown to users', async () => {
    const notice = await create({ type: 'info', message: 'Scheduled <b>maintenance</b>' });
    expect(notice).toMatchObject({
      type: 'info',
      message: 'Scheduled <b>maintenance</b>',
      status: 'disabled',
    });
    expect(notice.enabled_at).toBeNull();
    const user = await signedIn(app, 'acme.guest@x.test');
    const seen = (await user.get('/api/notices')).json().data as AdminNotice[];
    expect(seen.map((n) => n.id)).not.toContain(notice.id);
  });

  it('enabling now shows the notice to every signed-in user, newest first, with only the public fields', async () => {
    const older = await create({ type: 'warning', message: 'Older one' });
    const newer = await create({ type: 'update', message: 'Newer one' });
    await admin.post(`/api/admin/notices/${older.id}/enable`, {});
    const enabled = await admin.post(`/api/admin/notices/${newer.id}/enable`, {});
    expect(enabled.json()).toMatchObject({
      data: { status: 'enabled' },
      message: 'Notice enabled successfully',
    });
    const user = await signedIn(app, 'acme.guest@x.test');
    const response = await user.get('/api/notices');
    expect(response.statusCode).toBe(200);
    const list = response.json().data as AdminNotice[];
    const ids = list.map((n) => n.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(Object.keys(list[0]!).sort()).toEqual(['enabled_at', 'id', 'message', 'type']);
    for (let i = 1; i < list.length; i++) expect(list[i - 1]!.enabled_at! >= list[i]!.enabled_at!).toBe(true);
  });

  it('a notice enabled for later is scheduled: listed for the admin, not shown yet', async () => {
    const notice = await create({ type: 'maintenance', message: 'Tomorrow' });
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const response = await admin.post(`/api/admin/notices/${notice.id}/enable`, { enabled_at: later });
    expect(response.json().data).toMatchObject({ status: 'scheduled', enabled_at: later });
    const user = await signedIn(app, 'acme.admin@x.test');
    expect(((await user.get('/api/notices')).json().data as AdminNotice[]).map((n) => n.id)).not.toContain(
      notice.id,
    );
    const scheduled = (await admin.get('/api/admin/notices?status=scheduled&limit=100')).json();
    expect((scheduled.data as AdminNotice[]).map((n) => n.id)).toContain(notice.id);
  });

  it('enabling with a null time means now', async () => {
    const notice = await create({ type: 'info', message: 'Null means now' });
    const response = await admin.post(`/api/admin/notices/${notice.id}/enable`, { enabled_at: null });
    expect(response.json().data.status).toBe('enabled');
  });

  it('a time in the past enables the notice now, so it counts as the newest', async () => {
    const before = Date.now();
    const notice = await create({
      type: 'info',
      message: 'Back-dated',
      enabled_at: '2001-01-01T00:00:00.000Z',
    });
    expect(notice.status).toBe('enabled');
    expect(new Date(notice.enabled_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('disabling hides the notice again; the admin list still has it', async () => {
    const notice = await create({
      type: 'info',
      message: 'Short-lived',
      enabled_at: new Date().toISOString(),
    });
    const response = await admin.post(`/api/admin/notices/${notice.id}/disable`);
    expect(response.json().data).toMatchObject({ status: 'disabled', enabled_at: null });
    const seen = (await admin.get('/api/notices')).json().data as AdminNotice[];
    expect(seen.map((n) => n.id)).not.toContain(notice.id);
    expect((await admin.get(`/api/admin/notices/${notice.id}`)).json().data.status).toBe('disabled');
  });

  it('an update keeps an unchanged time and sanitises the new message', async () => {
    const notice = await create({ type: 'info', message: 'First', enabled_at: new Date().toISOString() });
    const response = await admin.put(`/api/admin/notices/${notice.id}`, {
      type: 'warning',
      message: 'Second <i onclick="x()">now</i>',
      enabled_at: notice.enabled_at,
    });
    expect(response.json()).toMatchObject({
      data: { type: 'warning', message: 'Second <i>now</i>', enabled_at: notice.enabled_at },
      message: 'Notice updated successfully',
    });
  });

  it('deletes a notice; a second delete and unknown ids answer 404', async () => {
    const notice = await create({ type: 'info', message: 'Going away' });
    expect((await admin.delete(`/api/admin/notices/${notice.id}`)).json().data).toEqual({ id: notice.id });
    const again = await admin.delete(`/api/admin/notices/${notice.id}`);
    expect(again.statusCode).toBe(404);
    expect(errorsOf(again)).toEqual([{ code: 'NOT_FOUND', message: 'Notice not found' }]);
    expect((await admin.put('/api/admin/notices/999999', { type: 'info', message: 'x' })).statusCode).toBe(
      404,
    );
    expect((await admin.post('/api/admin/notices/999999/enable', {})).statusCode).toBe(404);
  });

  it('audits every change with the actor and the notice', async () => {
    const notice = await create({ type: 'info', message: 'Audited' });
    await admin.post(`/api/admin/notices/${notice.id}/enable`, {});
    await admin.post(`/api/admin/notices/${notice.id}/disable`);
    await admin.put(`/api/admin/notices/${notice.id}`, { type: 'info', message: 'Audited twice' });
    await admin.delete(`/api/admin/notices/${notice.id}`);
    const rows = (await app.db.select().from(auditLog)).filter(
      (row) => row.targetType === 'notice' && row.targetId === String(notice.id),
    );
    expect(rows.map((row) => row.action)).toEqual([
      'notice.create',
      'notice.enable',
      'notice.disable',
      'notice.update',
      'notice.delete',
    ]);
    expect(rows.every((row) => row.actorUserId !== null)).toBe(true);
  });

  it('lists with paging, search and a total', async () => {
    await create({ type: 'update', message: 'Findable needle one' });
    await create({ type: 'update', message: 'Findable needle two' });
    const response = await admin.get('/api/admin/notices?q=needle&limit=1&sort=-id');
    const body = response.json();
    expect(body.meta.total).toBe(2);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].message).toBe('Findable needle two');
    expect((await admin.get('/api/admin/notices?sort=message')).statusCode).toBe(400);
  });
});

describe('hostile input (product §5 rich text, CONVENTIONS: strict bodies)', () => {
  it('escapes script tags and drops event handlers and javascript: links', async () => {
    const notice = await create({
      type: 'warning',
      message:
        '<script>alert(1)</script><a href="javascript:alert(1)" onclick="steal()">click</a><img src=x onerror=alert(1)>',
    });
    expect(notice.message).not.toMatch(/<script|<img|javascript:|onclick|onerror/i);
    expect(notice.message).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(notice.message).toContain('<a>click</a>');
  });

  it('keeps the allowed tags, attributes and schemes and nothing else', async () => {
    const notice = await create({
      type: 'info',
      message:
        '<a href="https://example.com" target="_blank" class="x" style="color:red" id="y">docs</a> ' +
        '<a href="mailto:ops@example.com" target="_top">mail</a> <a href="tel:+4712345678">call</a> ' +
        '<a href="//evil.example">proto</a> <strong class="k" title="t">s</strong><em>e</em><u>u</u>',
    });
    expect(notice.message).toBe(
      '<a href="https://example.com" class="x" target="_blank" rel="noopener noreferrer">docs</a> ' +
        '<a href="mailto:ops@example.com">mail</a> <a href="tel:+4712345678">call</a> ' +
        '<a>proto</a> <strong class="k">s</strong><em>e</em>&lt;u&gt;u&lt;/u&gt;',
    );
  });

  it('refuses a message with no visible text on the message field', async () => {
    const response = await admin.post('/api/admin/notices', { type: 'info', message: '<b> </b>' });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Message has no visible text', source: 'message' },
    ]);
  });

  it('refuses extra fields, unknown types, overlong messages and bad times', async () => {
    const extra = await admin.post('/api/admin/notices', { type: 'info', message: 'x', created_by: 1 });
    expect(extra.statusCode).toBe(400);
    expect((await admin.post('/api/admin/notices', { type: 'party', message: 'x' })).statusCode).toBe(400);
    expect(
      (await admin.post('/api/admin/notices', { type: 'info', message: 'x'.repeat(5001) })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post('/api/admin/notices', { type: 'info', message: 'x', enabled_at: 'tomorrow' }))
        .statusCode,
    ).toBe(400);
    const notice = await create({ type: 'info', message: 'x' });
    expect((await admin.post(`/api/admin/notices/${notice.id}/enable`, { when: 'now' })).statusCode).toBe(
      400,
    );
    expect((await admin.get('/api/admin/notices/abc')).statusCode).toBe(400);
  });

  it('a company admin or a guest may read notices but not manage them (403)', async () => {
    const notice = await create({ type: 'info', message: 'Admins only manage me' });
    for (const email of ['acme.admin@x.test', 'acme.guest@x.test']) {
      const user = await signedIn(app, email);
      expect((await user.get('/api/notices')).statusCode).toBe(200);
      const attempts = [
        await user.get('/api/admin/notices'),
        await user.get(`/api/admin/notices/${notice.id}`),
        await user.post('/api/admin/notices', { type: 'info', message: 'mine' }),
        await user.put(`/api/admin/notices/${notice.id}`, { type: 'info', message: 'mine' }),
        await user.post(`/api/admin/notices/${notice.id}/enable`, {}),
        await user.post(`/api/admin/notices/${notice.id}/disable`),
        await user.delete(`/api/admin/notices/${notice.id}`),
      ];
      expect(attempts.map((a) => a.statusCode)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    }
    expect((await admin.get(`/api/admin/notices/${notice.id}`)).json().data.message).toBe(
      'Admins only manage me',
    );
  });

  it('a visitor without a session gets 401 everywhere, and a write without the XSRF token is refused', async () => {
    const visitor = new TestClient(app);
    expect((await visitor.get('/api/notices')).statusCode).toBe(401);
    expect((await visitor.get('/api/admin/notices')).statusCode).toBe(401);
    const noXsrf = await admin.post(
      '/api/admin/notices',
      { type: 'info', message: 'x' },
      { 'x-xsrf-token': '' },
    );
    expect(noXsrf.statusCode).toBe(403);
  });
});
