import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server';
import { settingsRepository } from '../settings/settings.repository';
import { userInvitationMail } from './mail.templates';

let app: FastifyInstance;
let admin: TestClient;
let smtp: TestSmtpServer;
const SMTP_USER = 'relay-user';
const SMTP_PASS = 'relay-pass-Ω-123';

const config = (overrides: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: smtp.port,
  security: 'none',
  username: SMTP_USER,
  password: SMTP_PASS,
  from_address: 'console@fleetgate.test',
  from_name: 'Fleetgate Console',
  ...overrides,
});

type Row = { id: number; to: string; status: string; error: string | null; template: string };
async function logRows(q?: string): Promise<Row[]> {
  const response = await admin.get(`/api/mail-logs${q ? `?q=${encodeURIComponent(q)}` : ''}`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

beforeAll(async () => {
  [app, smtp] = await Promise.all([
    // The test SMTP server listens on loopback, which is refused unless allowed (smtp-target.ts).
    buildTestApp({ SMTP_ALLOWED_HOSTS: '127.0.0.1' }),
    startSmtpServer({ auth: { user: SMTP_USER, pass: SMTP_PASS }, reject: ['gone@example.test'] }),
  ]);
  await app.ready();
  admin = await new TestClient(app).login();
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('mail without SMTP (the embedded default still works)', () => {
  it('logs the message as unsent, and the super admin reads its text in the mail log', async () => {
    const result = await app.mail.send({
      to: 'Someone@Example.test',
      template: 'user_invitation',
      subject: 'Hello',
      text: 'Your link: http://x/account/invitation/abc',
    });
    expect(result.status).toBe('unsent');
    const [row] = await logRows('someone@example.test');
    expect(row).toMatchObject({
      to: 'someone@example.test',
      status: 'unsent',
      error: 'SMTP is not configured',
    });
    const message = await admin.get(`/api/mail-logs/${row!.id}`);
    expect(message.json().data.text).toContain('/account/invitation/abc');
  });

  it('the test action says SMTP is not configured', async () => {
    const response = await admin.post('/api/email-smtp/test', { to: 'ops@example.test' });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]!.message).toMatch(/not configured/);
  });

  it('GET /email-configurations is an empty selector list', async () => {
    const response = await admin.get('/api/email-configurations?limit=100');
    expect(response.json()).toMatchObject({ data: [], meta: { total: 0 } });
  });
});

describe('SMTP configuration (product §2 email-smtp)', () => {
  it('stores the password encrypted and never answers it', async () => {
    const saved = await admin.put('/api/email-smtp', config());
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(SMTP_PASS);
    expect(saved.json().data).toMatchObject({ host: '127.0.0.1', password_set: true, username: SMTP_USER });
    const read = await admin.get('/api/email-smtp');
    expect(read.body).not.toContain(SMTP_PASS);
    expect(read.json().data.password_set).toBe(true);
    const stored = JSON.stringify(await settingsRepository.get(app.db, 'smtp'));
    expect(stored).not.toContain(SMTP_PASS);
    expect(stored).toMatch(/"password_sealed":"v1\./);
  });

  it('sends a test message through the real SMTP server, authenticated with the stored password', async () => {
    const response = await admin.post('/api/email-smtp/test', { to: 'ops@example.test' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Test message sent to ops@example.test');
    const arrived = await smtp.waitFor('ops@example.test');
    expect(arrived.user).toBe(SMTP_USER);
    expect(arrived.mail.from?.value[0]).toMatchObject({
      address: 'console@fleetgate.test',
      name: 'Fleetgate Console',
    });
    expect(arrived.mail.subject).toBe('Fleetgate test message');
    expect(arrived.mail.text).toContain('test message');
    const [row] = await logRows('ops@example.test');
    expect(row).toMatchObject({ status: 'sent', template: 'smtp_test', error: null });
  });

  it('an update without a password keeps the stored one', async () => {
    const { password: _omitted, ...rest } = config();
    expect((await admin.put('/api/email-smtp', { ...rest, from_name: 'Renamed' })).statusCode).toBe(200);
    expect((await admin.get('/api/email-smtp')).json().data).toMatchObject({
      password_set: true,
      from_name: 'Renamed',
    });
    expect((await admin.post('/api/email-smtp/test', { to: 'kept@example.test' })).statusCode).toBe(200);
    await smtp.waitFor('kept@example.test');
  });

  it('a wrong password makes the message failed with the status code, and the test action says so', async () => {
    await admin.put('/api/email-smtp', config({ password: 'wrong' }));
    const response = await admin.post('/api/email-smtp/test', { to: 'wrong@example.test' });
    expect(response.statusCode).toBe(502);
    expect(errorsOf(response)[0]).toEqual({
      code: 'SMTP_ERROR',
      message: 'Sending failed: The SMTP server refused the sign-in (535)',
    });
    const [row] = await logRows('wrong@example.test');
    expect(row!.status).toBe('failed');
    expect(row!.error).toBe('The SMTP server refused the sign-in (535)');
    await admin.put('/api/email-smtp', config());
  });

  it('refuses unknown fields and header injection in the sender name', async () => {
    const extra = await admin.put('/api/email-smtp', { ...config(), password_sealed: 'x' });
    expect(extra.statusCode).toBe(400);
    expect(errorsOf(extra)[0]!.source).toBe('password_sealed');
    const injected = await admin.put(
      '/api/email-smtp',
      config({ from_name: 'A\r\nBcc: victim@example.test' }),
    );
    expect(injected.statusCode).toBe(400);
    expect(errorsOf(injected)[0]!.source).toBe('from_name');
  });

  it('offers the configuration as the one entry of GET /email-configurations', async () => {
    const response = await admin.get('/api/email-configurations?limit=100');
    expect(response.json().data).toEqual([
      {
        id: 1,
        name: 'Fleetgate Console <console@fleetgate.test>',
        host: '127.0.0.1',
        from_address: 'console@fleetgate.test',
      },
    ]);
  });
});

describe('suppression list (product §3 removeFromSuppresionList)', () => {
  it('nothing is sent to a suppressed address until it is removed', async () => {
    const added = await admin.post('/api/suppressed-emails', {
      email: 'Quiet@Example.test',
      reason: 'asked',
    });
    expect(added.statusCode).toBe(200);
    expect(
      (await admin.post('/api/suppressed-emails', { email: 'quiet@example.test', reason: 'again' }))
        .statusCode,
    ).toBe(409);
    const result = await app.mail.send({ to: 'quiet@example.test', template: 't', subject: 's', text: 'x' });
    expect(result.status).toBe('suppressed');
    expect(smtp.received.some((m) => m.envelope.to.includes('quiet@example.test'))).toBe(false);
    const list = await admin.get('/api/suppressed-emails');
    expect(list.json().data.map((r: { email: string }) => r.email)).toContain('quiet@example.test');

    const removed = await admin.delete(`/api/suppressed-emails/${encodeURIComponent('quiet@example.test')}`);
    expect(removed.statusCode).toBe(200);
    expect((await admin.delete('/api/suppressed-emails/quiet@example.test')).statusCode).toBe(404);
    const again = await app.mail.send({ to: 'quiet@example.test', template: 't', subject: 's', text: 'x' });
    expect(again.status).toBe('sent');
    await smtp.waitFor('quiet@example.test');
  });

  it('a permanent refusal of the recipient (550) fails the message and suppresses the address', async () => {
    const result = await app.mail.send({ to: 'gone@example.test', template: 't', subject: 's', text: 'x' });
    expect(result.status).toBe('failed');
    const list = await admin.get('/api/suppressed-emails?q=gone');
    expect(list.json().data[0]).toMatchObject({ email: 'gone@example.test' });
    expect(list.json().data[0].reason).toBe('Bounced: The SMTP server answered 550');
  });
});

describe('STARTTLS', () => {
  it('verifies the certificate unless told to accept an invalid one', async () => {
    const tls = await startSmtpServer({ tls: true, auth: { user: 'u', pass: 'p' } });
    try {
      const base = config({ port: tls.port, security: 'starttls', username: 'u', password: 'p' });
      await admin.put('/api/email-smtp', base);
      const refused = await admin.post('/api/email-smtp/test', { to: 'tls@example.test' });
      expect(refused.statusCode).toBe(502);
      expect(errorsOf(refused)[0]!.message).toMatch(/certificate/i);
      await admin.put('/api/email-smtp', { ...base, allow_invalid_certificate: true });
      expect((await admin.post('/api/email-smtp/test', { to: 'tls@example.test' })).statusCode).toBe(200);
      expect((await tls.waitFor('tls@example.test')).user).toBe('u');
    } finally {
      await tls.close();
      await admin.put('/api/email-smtp', config());
    }
  });
});

describe('who may do what', () => {
  it('an admin of a company reaches neither the configuration, the log nor the suppression list', async () => {
    const { acme } = await tenantTree(app);
    await createUser(app, 'mail.admin@acme.test', 'admin', acme.id);
    const acmeAdmin = await signedIn(app, 'mail.admin@acme.test');
    // Valid bodies: the refusal must come from the permission, not from validation.
    for (const [method, url, body] of [
      ['GET', '/api/email-smtp', undefined],
      ['PUT', '/api/email-smtp', config()],
      ['DELETE', '/api/email-smtp', undefined],
      ['POST', '/api/email-smtp/test', { to: 'a@b.test' }],
      ['GET', '/api/email-configurations', undefined],
      ['GET', '/api/mail-logs', undefined],
      ['GET', '/api/mail-logs/1', undefined],
      ['GET', '/api/suppressed-emails', undefined],
      ['POST', '/api/suppressed-emails', { email: 'a@b.test', reason: 'r' }],
      ['DELETE', '/api/suppressed-emails/a@b.test', undefined],
    ] as const) {
      const response = await acmeAdmin.request(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await admin.get('/api/email-smtp')).json().data).not.toBeNull();
    expect((await new TestClient(app).get('/api/mail-logs')).statusCode).toBe(401);
  });

  it('removing the configuration goes back to unsent', async () => {
    expect((await admin.delete('/api/email-smtp')).statusCode).toBe(200);
    expect((await admin.get('/api/email-smtp')).json().data).toBeNull();
    const result = await app.mail.send({ to: 'after@example.test', template: 't', subject: 's', text: 'x' });
    expect(result.status).toBe('unsent');
    await admin.put('/api/email-smtp', config());
  });
});

describe('templates', () => {
  it('escape what users typed in the HTML and keep the text plain', () => {
    const mail = userInvitationMail({
      appName: 'Fleetgate',
      inviter: '<script>alert(1)</script>',
      companyName: 'A & B',
      roleTitle: 'Admin"',
      url: 'http://console.test/account/invitation/tok',
      expiresAt: new Date('2030-01-01T00:00:00Z'),
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.text).toContain('<script>alert(1)</script> invited you to join A & B as Admin"');
    expect(mail.text).toContain('http://console.test/account/invitation/tok');
  });
});
