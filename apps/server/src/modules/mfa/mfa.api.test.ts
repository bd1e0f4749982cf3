import { MFA_MAX_ATTEMPTS, RECOVERY_CODE_COUNT } from '@fleetgate/shared/schemas/mfa';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { companies } from '#src/db/schema/companies';
import { mailLog } from '#src/db/schema/mail';
import { mfaChallenges, recoveryCodes, userTotp } from '#src/db/schema/mfa';
import { sessions } from '#src/db/schema/sessions';
import { users } from '#src/db/schema/users';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createCompany, createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';
import { TOTP_REUSED_NOTICE } from './mfa.mails';
import { totpCodeAt } from './totp';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const STEP = 30_000;

beforeAll(async () => {
  // The per-account sign-in limit has tests of its own (auth/guessing-limits); a burst here tests the codes.
  app = await buildTestApp({ ACCOUNT_LOGIN_LIMIT: '100' });
  tree = await tenantTree(app);
});
afterAll(() => app.close());

const login = (client: TestClient, email: string, extra: Record<string, unknown> = {}) =>
  client.post('/api/auth/login', { email, password: USER_PASSWORD, ...extra });

/** Enrols TOTP for a new user; answers the secret and the recovery codes. */
async function withTotp(email: string) {
  await createUser(app, email, 'end_user', tree.acme.id);
  const client = await signedIn(app, email);
  const { secret } = (await client.post('/api/user/mfa/totp')).json().data as { secret: string };
  const confirmed = await client.post('/api/user/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recovery: confirmed.json().data.recovery_codes as string[] };
}

/** The newest code e-mailed to an address (the mail log keeps every message: no SMTP in tests). */
async function mailedCode(email: string): Promise<string> {
  const [mail] = await app.db
    .select()
    .from(mailLog)
    .where(and(eq(mailLog.to, email), eq(mailLog.template, 'mfa_code')))
    .orderBy(desc(mailLog.id))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Starts a sign-in that stops at the second step; answers its meta. */
async function challenged(client: TestClient, email: string) {
  const response = await login(client, email);
  expect(response.statusCode).toBe(401);
  expect(errorsOf(response)[0]?.code).toBe('MFA_REQUIRED');
  expect(response.cookies).toHaveLength(0);
  return response.json().meta as { mfa_method: string; session_id: string; session_uuid: string };
}

describe('TOTP (product §1 time-based code app, RFC 6238)', () => {
  it('successful enrolment: QR code, secret stored encrypted, ten recovery codes stored hashed', async () => {
    await createUser(app, 'totp.enrol@x.test', 'end_user', tree.acme.id);
    const client = await signedIn(app, 'totp.enrol@x.test');
    const started = (await client.post('/api/user/mfa/totp')).json().data;
    expect(started.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(started.otpauth_url).toContain(`secret=${started.secret}`);
    const wrong = await client.post('/api/user/mfa/totp/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(errorsOf(wrong)[0]).toMatchObject({ code: 'CONFIRMATION_FAILED', source: 'code' });
    const ok = await client.post('/api/user/mfa/totp/confirm', {
      code: totpCodeAt(started.secret, Date.now()),
    });
    const codes = ok.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);

    const userId = (await client.get('/api/user')).json().data.id;
    const [row] = await app.db.select().from(userTotp).where(eq(userTotp.userId, userId));
    expect(row!.secretEncrypted).not.toContain(started.secret);
    const stored = await app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(stored.map((s) => s.codeHash)).not.toContain(codes[0]);
    expect((await client.get('/api/user')).json().data.mfa_type).toBe('totp');
    expect((await client.get('/api/user/mfa')).json().data).toMatchObject({
      method: 'totp',
      recovery_codes_left: 10,
    });
    // One method at a time.
    expect((await client.post('/api/user/mfa/totp')).statusCode).toBe(409);
  });

  it('successful sign-in with MFA_REQUIRED, then the code with session ids', async () => {
    const { secret } = await withTotp('totp.signin@x.test');
    const client = new TestClient(app);
    const meta = await challenged(client, 'totp.signin@x.test');
    expect(meta.mfa_method).toBe('totp');
    expect(meta.session_id).toBe(meta.session_uuid);
    const done = await login(client, 'totp.signin@x.test', {
      session_code: totpCodeAt(secret, Date.now() + STEP),
      session_id: meta.session_id,
      session_uuid: meta.session_uuid,
    });
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.email).toBe('totp.signin@x.test');
  });

  it('failing sign-in: the same TOTP code is refused the second time', async () => {
    const { secret } = await withTotp('totp.reuse@x.test');
    const code = totpCodeAt(secret, Date.now() + STEP);
    const first = new TestClient(app);
    const m1 = await challenged(first, 'totp.reuse@x.test');
    expect(
      (await login(first, 'totp.reuse@x.test', { session_code: code, session_id: m1.session_id })).statusCode,
    ).toBe(200);
    const second = new TestClient(app);
    const m2 = await challenged(second, 'totp.reuse@x.test');
    const reused = await login(second, 'totp.reuse@x.test', {
      session_code: code,
      session_id: m2.session_id,
    });
    expect(reused.statusCode).toBe(422);
    expect(errorsOf(reused)[0]).toMatchObject({ code: 'CONFIRMATION_FAILED', source: 'session_code' });
    expect(errorsOf(reused)[0]?.message).toMatch(/^This code was used already/);
    expect(reused.cookies).toHaveLength(0);
    // ASVS V2.8.5: logged, and the holder told in the console and by e-mail.
    const [user] = await app.db.select().from(users).where(eq(users.email, 'totp.reuse@x.test'));
    const logged = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.totp_reused'), eq(auditLog.actorUserId, user!.id)));
    expect(logged).toHaveLength(1);
    const bell = (await first.get('/api/notifications')).json().data as { summary: string }[];
    expect(bell[0]?.summary).toBe(TOTP_REUSED_NOTICE);
    const [mail] = await app.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.to, 'totp.reuse@x.test'), eq(mailLog.template, 'mfa_totp_reused')));
    expect(mail?.text).toContain(TOTP_REUSED_NOTICE);
  });

  it('failing sign-in: wrong codes keep the challenge until the attempts run out, then it is dead', async () => {
    const { secret } = await withTotp('totp.attempts@x.test');
    const client = new TestClient(app);
    const meta = await challenged(client, 'totp.attempts@x.test');
    for (let i = 1; i < MFA_MAX_ATTEMPTS; i++) {
      const wrong = await login(client, 'totp.attempts@x.test', {
        session_code: '000000',
        session_id: meta.session_id,
      });
      expect(wrong.statusCode).toBe(422);
      const left = MFA_MAX_ATTEMPTS - i;
      expect(errorsOf(wrong)[0]?.message).toBe(
        `Invalid verification code (${left} ${left === 1 ? 'attempt' : 'attempts'} left)`,
      );
    }
    const last = await login(client, 'totp.attempts@x.test', {
      session_code: '000000',
      session_id: meta.session_id,
    });
    expect(last.statusCode).toBe(401);
    expect(errorsOf(last)[0]?.code).toBe('UNAUTHORIZED');
    const right = await login(client, 'totp.attempts@x.test', {
      session_code: totpCodeAt(secret, Date.now() + STEP),
      session_id: meta.session_id,
    });
    expect(right.statusCode).toBe(401);
    expect(right.cookies).toHaveLength(0);
  });

  it('a recovery code stands in for a TOTP code, once', async () => {
    const { recovery } = await withTotp('totp.recovery@x.test');
    const first = new TestClient(app);
    const m1 = await challenged(first, 'totp.recovery@x.test');
    const used = await login(first, 'totp.recovery@x.test', {
      session_code: recovery[0]!.toLowerCase(),
      session_id: m1.session_id,
    });
    expect(used.statusCode).toBe(200);
    const second = new TestClient(app);
    const m2 = await challenged(second, 'totp.recovery@x.test');
    const again = await login(second, 'totp.recovery@x.test', {
      session_code: recovery[0],
      session_id: m2.session_id,
    });
    expect(again.statusCode).toBe(422);
    expect((await first.get('/api/user/mfa')).json().data.recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('a challenge answers only its own sign-in: another user’s session id does not help', async () => {
    await withTotp('totp.cross-a@x.test');
    const { secret } = await withTotp('totp.cross-b@x.test');
    const a = await challenged(new TestClient(app), 'totp.cross-a@x.test');
    const b = new TestClient(app);
    await challenged(b, 'totp.cross-b@x.test');
    const crossed = await login(b, 'totp.cross-b@x.test', {
      session_code: totpCodeAt(secret, Date.now() + STEP),
      session_id: a.session_id,
    });
    expect(crossed.statusCode).toBe(401);
  });
});

describe('e-mail codes (product §1, §9 Enter authentication code)', () => {
  it('successful enrolment and sign-in with codes read from the mail log; codes stored hashed', async () => {
    await createUser(app, 'mail.mfa@x.test', 'end_user', tree.acme.id);
    const client = await signedIn(app, 'mail.mfa@x.test');
    const started = (await client.post('/api/user/mfa/email')).json().data;
    const enrolCode = await mailedCode('mail.mfa@x.test');
    const wrongCode = enrolCode === '999999' ? '999998' : '999999';
    const wrong = await client.post('/api/user/mfa/email/confirm', {
      session_id: started.session_id,
      code: wrongCode,
    });
    expect(wrong.statusCode).toBe(422);
    const [stored] = await app.db
      .select()
      .from(mfaChallenges)
      .where(eq(mfaChallenges.id, started.session_id));
    expect(stored!.codeHash).not.toContain(enrolCode);
    expect(
      (await client.post('/api/user/mfa/email/confirm', { session_id: started.session_id, code: enrolCode }))
        .statusCode,
    ).toBe(200);
    expect((await client.get('/api/user')).json().data.mfa_type).toBe('email');

    const browser = new TestClient(app);
    const meta = await challenged(browser, 'mail.mfa@x.test');
    expect(meta.mfa_method).toBe('email');
    const code = await mailedCode('mail.mfa@x.test');
    expect(
      (await login(browser, 'mail.mfa@x.test', { session_code: code, session_id: meta.session_id }))
        .statusCode,
    ).toBe(200);
    // Single use: the same challenge and code again.
    const replay = await login(new TestClient(app), 'mail.mfa@x.test', {
      session_code: code,
      session_id: meta.session_id,
    });
    expect(replay.statusCode).toBe(401);
  });

  it('failing sign-in: a code expires after 10 minutes', async () => {
    const browser = new TestClient(app);
    const meta = await challenged(browser, 'mail.mfa@x.test');
    const code = await mailedCode('mail.mfa@x.test');
    const [row] = await app.db.select().from(mfaChallenges).where(eq(mfaChallenges.id, meta.session_id));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(10 * 60_000);
    await app.db
      .update(mfaChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mfaChallenges.id, meta.session_id));
    const late = await login(browser, 'mail.mfa@x.test', { session_code: code, session_id: meta.session_id });
    expect(late.statusCode).toBe(401);
    expect(errorsOf(late)[0]?.message).toBe('The verification has expired. Please sign in again.');
  });
});

describe('attempt limits under concurrency', () => {
  it('failing-raced-attempts: thirty wrong codes sent at once get five checks, and the right one after them fails', async () => {
    await createUser(app, 'mail.race@x.test', 'end_user', tree.acme.id);
    await app.db.update(users).set({ mfaType: 'email' }).where(eq(users.email, 'mail.race@x.test'));
    const meta = await challenged(new TestClient(app), 'mail.race@x.test');
    const code = await mailedCode('mail.race@x.test');
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login(new TestClient(app), 'mail.race@x.test', {
          session_code: wrong(i),
          session_id: meta.session_id,
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 422).length).toBe(MFA_MAX_ATTEMPTS - 1);
    expect(answers.filter((a) => a.statusCode === 401).length).toBe(30 - (MFA_MAX_ATTEMPTS - 1));
    const right = await login(new TestClient(app), 'mail.race@x.test', {
      session_code: code,
      session_id: meta.session_id,
    });
    expect(right.statusCode).toBe(401);
    expect(right.cookies).toHaveLength(0);
    const [stored] = await app.db.select().from(mfaChallenges).where(eq(mfaChallenges.id, meta.session_id));
    expect(stored!.attempts).toBe(MFA_MAX_ATTEMPTS);
  });
});

describe('removing the second step', () => {
  it('needs a fresh password (423), then turns it off and revokes access tokens', async () => {
    const { recovery } = await withTotp('totp.remove@x.test');
    const client = new TestClient(app);
    const meta = await challenged(client, 'totp.remove@x.test');
    await login(client, 'totp.remove@x.test', { session_code: recovery[1], session_id: meta.session_id });
    expect((await client.post('/api/password-confirmation', { password: USER_PASSWORD })).statusCode).toBe(
      200,
    );
    const created = await client.post('/api/user/tokens', { name: 'ci', scopes: ['devices:read'] });
    expect(created.statusCode).toBe(200);
    // Ten minutes later, as far as the session knows.
    await app.db.update(sessions).set({ passwordConfirmedAt: new Date(Date.now() - 11 * 60_000) });

    const refused = await client.delete('/api/user/mfa');
    expect(refused.statusCode).toBe(423);
    expect((await client.get('/api/user')).json().data.mfa_type).toBe('totp');
    await client.post('/api/password-confirmation', { password: USER_PASSWORD });
    expect((await client.delete('/api/user/mfa')).statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.mfa_type).toBeNull();
    expect((await client.get('/api/user/tokens')).json().data).toEqual([]);
    // Signing in needs no second step any more.
    expect((await login(new TestClient(app), 'totp.remove@x.test')).statusCode).toBe(200);
  });
});

describe('blocking conditions (product §6, §8 Session)', () => {
  it('MFA_MANDATORY: the user gets the notice code everywhere but the enrolment routes, until enrolled', async () => {
    const { id } = await createCompany(app, 'Strict');
    await app.db.update(companies).set({ mfaMandatory: true }).where(eq(companies.id, id));
    await createUser(app, 'strict.user@x.test', 'admin', id);
    const client = await signedIn(app, 'strict.user@x.test');
    const me = await client.get('/api/user');
    expect(me.statusCode).toBe(403);
    expect(errorsOf(me)[0]?.code).toBe('MFA_MANDATORY');
    expect(me.json().meta).toEqual({ email: 'strict.user@x.test' });
    expect(errorsOf(await client.get('/api/users'))[0]?.code).toBe('MFA_MANDATORY');
    expect((await client.get('/api/user/mfa')).json().data.mandatory).toBe(true);
    const { secret } = (await client.post('/api/user/mfa/totp')).json().data;
    await client.post('/api/user/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) });
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect((await client.get('/api/users')).statusCode).toBe(200);
  });

  it('EMAIL_NOT_VERIFIED: resend mails a link; opening it confirms the address', async () => {
    const user = await createUser(app, 'unconfirmed@x.test', 'end_user', tree.acme.id);
    await app.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const client = await signedIn(app, 'unconfirmed@x.test');
    expect(errorsOf(await client.get('/api/user'))[0]?.code).toBe('EMAIL_NOT_VERIFIED');
    expect(errorsOf(await client.get('/api/user/mfa'))[0]?.code).toBe('EMAIL_NOT_VERIFIED');
    const resent = await client.post('/api/auth/user/activation/resend');
    expect(resent.statusCode).toBe(200);
    expect(resent.json().message).toBe('Email confirmation sent successfully');
    const [mail] = await app.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.to, 'unconfirmed@x.test'), eq(mailLog.template, 'email_confirmation')));
    const token = new URL(/(http\S+verify-email\S+)/.exec(mail!.text)![1]!).searchParams.get('token')!;
    const forged = await new TestClient(app).post('/api/auth/user/activation/verify', {
      token: `${token.slice(0, -2)}xx`,
    });
    expect(forged.statusCode).toBe(400);
    expect((await new TestClient(app).post('/api/auth/user/activation/verify', { token })).statusCode).toBe(
      200,
    );
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect((await client.post('/api/auth/user/activation/resend')).statusCode).toBe(409);
  });
});
