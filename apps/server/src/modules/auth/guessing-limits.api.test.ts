import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailLog } from '#src/db/schema/mail';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';
import { ACCOUNT_LOCKED, CONFIRMATION_LOCKED } from './auth.service';

/**
 * The guessing limits of docs/security.md, attacked the way the security review did: from
 * many addresses at once, and with requests sent together.
 */
let app: FastifyInstance;
let acmeId: number;
const LIMIT = 20;

beforeAll(async () => {
  // Per address the limit is high here, so that only the per-account limit is at work.
  app = await buildTestApp({ ACCOUNT_LOGIN_LIMIT: String(LIMIT) });
  acmeId = (await tenantTree(app)).acme.id;
});
afterAll(() => app.close());

/** A sign-in from `address`, as a browser there would send it. */
const signInFrom = (address: string, body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: body,
  });

async function lockMails(email: string) {
  return app.db
    .select()
    .from(mailLog)
    .where(and(eq(mailLog.to, email), eq(mailLog.template, 'account_locked')))
    .orderBy(desc(mailLog.id));
}

describe('sign-ins of one account from every address together (ASVS V2.2.1)', () => {
  it('failing-distributed-guessing: 15 addresses × 2 wrong passwords lock the account; the right password from a new address is refused too', async () => {
    const email = 'locked.owner@x.test';
    await createUser(app, email, 'end_user', acmeId);
    const statuses: number[] = [];
    for (let address = 1; address <= 15; address++) {
      for (let i = 0; i < 2; i++) {
        statuses.push(
          (await signInFrom(`203.0.113.${address}`, { email, password: `guess-${i}` })).statusCode,
        );
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LIMIT);
    const right = await signInFrom('198.51.100.7', { email, password: USER_PASSWORD });
    expect(right.statusCode).toBe(429);
    expect(errorsOf(right)).toEqual([{ code: 'RATE_LIMITED', message: ACCOUNT_LOCKED }]);
    expect(right.cookies).toHaveLength(0);
  });

  it('the owner is told once, and signs in past the lock with the e-mailed link (an attacker without it cannot)', async () => {
    const email = 'locked.owner@x.test';
    const mails = await lockMails(email);
    expect(mails).toHaveLength(1);
    const token = /[?&]unlock=([A-Za-z0-9_-]+)/.exec(mails[0]!.text)?.[1];
    expect(token).toBeDefined();
    const forged = await signInFrom('198.51.100.8', {
      email,
      password: USER_PASSWORD,
      unlock_token: 'x'.repeat(43),
    });
    expect(forged.statusCode).toBe(429);
    const owner = await signInFrom('198.51.100.9', { email, password: USER_PASSWORD, unlock_token: token });
    expect(owner.statusCode).toBe(200);
    // The lock is over for good: the link worked once, and plain sign-ins work again.
    expect((await signInFrom('198.51.100.9', { email, password: USER_PASSWORD })).statusCode).toBe(200);
    expect(
      (await signInFrom('198.51.100.9', { email, password: USER_PASSWORD, unlock_token: token })).statusCode,
    ).toBe(200);
  });

  it('an address nobody has answers the same as a real locked account (no enumeration), and no mail goes out', async () => {
    const email = 'nobody.here@x.test';
    let last = await signInFrom('203.0.113.200', { email, password: 'guess' });
    for (let i = 0; i < LIMIT; i++)
      last = await signInFrom(`203.0.113.${i + 1}`, { email, password: 'guess' });
    expect(last.statusCode).toBe(429);
    expect(errorsOf(last)).toEqual([{ code: 'RATE_LIMITED', message: ACCOUNT_LOCKED }]);
    expect(await lockMails(email)).toHaveLength(0);
  });
});

describe('password confirmation (the 423 step-up)', () => {
  it('failing-confirmation-guessing: five wrong passwords, then 429 even for the right one', async () => {
    await createUser(app, 'confirm.guess@x.test', 'end_user', acmeId);
    const client = await signedIn(app, 'confirm.guess@x.test');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await client.post('/api/password-confirmation', { password: `wrong-${i}` })).statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429, 429]);
    const right = await client.post('/api/password-confirmation', { password: USER_PASSWORD });
    expect(right.statusCode).toBe(429);
    expect(errorsOf(right)).toEqual([{ code: 'RATE_LIMITED', message: CONFIRMATION_LOCKED }]);
  });

  it('failing-confirmation-burst: twenty guesses sent at once get five checks', async () => {
    await createUser(app, 'confirm.burst@x.test', 'end_user', acmeId);
    const client = await signedIn(app, 'confirm.burst@x.test');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post('/api/password-confirmation', { password: `wrong-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
  });

  it('the right password clears the count, and an impersonator is counted as themselves', async () => {
    await createUser(app, 'confirm.ok@x.test', 'end_user', acmeId);
    const client = await signedIn(app, 'confirm.ok@x.test');
    for (let i = 0; i < 4; i++) await client.post('/api/password-confirmation', { password: 'wrong' });
    expect((await client.post('/api/password-confirmation', { password: USER_PASSWORD })).statusCode).toBe(
      200,
    );
    for (let i = 0; i < 4; i++) {
      expect((await client.post('/api/password-confirmation', { password: 'wrong' })).statusCode).toBe(422);
    }
    expect((await new TestClient(app).get('/api/user')).statusCode).toBe(401);
  });
});
