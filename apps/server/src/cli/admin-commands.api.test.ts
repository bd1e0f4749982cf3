import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, TestClient } from '#test/app';
import { createUser } from '#test/factories';
import { auditLog } from '../db/schema/audit';
import { roles } from '../db/schema/roles';
import { sessions } from '../db/schema/sessions';
import { users } from '../db/schema/users';
import { seed } from '../db/seed';
import { type AdminIo, PASSWORD_VARIABLE, runAdmin } from './admin-commands';
import { PromptCancelled } from './password-prompt';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

/** Runs the admin command on the test app's database and keeps what it printed. */
async function admin(argv: string[], options: { env?: Record<string, string>; typed?: string | null } = {}) {
  let out = '';
  let err = '';
  const io: AdminIo = {
    env: options.env ?? {},
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    askPassword: async () => {
      if (options.typed === undefined || options.typed === null) throw new PromptCancelled();
      return options.typed;
    },
    database: app.database,
  };
  const code = await runAdmin(argv, io);
  return { code, out, err };
}

const generatedPasswordOf = (out: string) => out.match(/Password: (\S+) {3}\(generated now/)?.[1];

async function signIn(email: string, password: string) {
  const response = await new TestClient(app).post('/api/auth/login', { email, password });
  return response.statusCode;
}

async function lastAudit(action: string) {
  const [row] = await app.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

describe('npm run admin -- reset-password', () => {
  it('successful-reset: the new password signs in, the old one no longer does, sessions end', async () => {
    const before = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await before.get('/api/user')).statusCode).toBe(200);

    const { code, out, err } = await admin(['reset-password', ADMIN_EMAIL.toUpperCase()]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const password = generatedPasswordOf(out);
    expect(password).toHaveLength(16);
    expect(out).toContain('1 session signed out');

    expect(await signIn(ADMIN_EMAIL, password!)).toBe(200);
    expect(await signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).toBe(401);
    // The session opened with the old password is over.
    expect((await before.get('/api/user')).statusCode).toBe(401);

    const [admin1] = await app.db.select().from(users).where(eq(users.email, ADMIN_EMAIL));
    const live = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, admin1!.id), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(1); // the sign-in just made with the new password
    const audit = await lastAudit('admin.reset_password');
    expect(audit).toMatchObject({ actorUserId: null, targetType: 'user', targetId: String(admin1!.id) });
    expect(audit?.details).toMatchObject({ sessions_ended: 1 });
  });

  it(`takes the password from ${PASSWORD_VARIABLE} or the prompt (--password), never from an argument`, async () => {
    const fromEnv = await admin(['reset-password', ADMIN_EMAIL], {
      env: { [PASSWORD_VARIABLE]: 'chosen-password-1' },
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.out).not.toContain('chosen-password-1');
    expect(await signIn(ADMIN_EMAIL, 'chosen-password-1')).toBe(200);

    const typed = await admin(['reset-password', ADMIN_EMAIL, '--password'], { typed: 'typed-password-2' });
    expect(typed.code).toBe(0);
    expect(await signIn(ADMIN_EMAIL, 'typed-password-2')).toBe(200);

    const inline = await admin(['reset-password', ADMIN_EMAIL, '--password=on-the-command-line']);
    expect(inline.code).toBe(2);
    expect(inline.err).toContain(PASSWORD_VARIABLE);
    const positional = await admin(['reset-password', ADMIN_EMAIL, 'on-the-command-line']);
    expect(positional.code).toBe(2);
    expect(await signIn(ADMIN_EMAIL, 'typed-password-2')).toBe(200);
  });

  it('failing-reset: a too short or cancelled password changes nothing', async () => {
    const short = await admin(['reset-password', ADMIN_EMAIL], { env: { [PASSWORD_VARIABLE]: 'short' } });
    expect(short.code).toBe(1);
    expect(short.err).toContain('at least 8 characters');
    const cancelled = await admin(['reset-password', ADMIN_EMAIL, '--password'], { typed: null });
    expect(cancelled.code).toBe(1);
    expect(cancelled.err).toContain('Cancelled');
    expect(await signIn(ADMIN_EMAIL, 'typed-password-2')).toBe(200);
  });

  it('failing-reset: an unknown e-mail exits non-zero and says so', async () => {
    const { code, out, err } = await admin(['reset-password', 'nobody@fleetgate.test']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('No user has the e-mail address nobody@fleetgate.test');
  });
});

describe('npm run admin -- create-super-admin', () => {
  it('successful-creation: a super admin in the root company who can sign in', async () => {
    const { code, out, err } = await admin(['create-super-admin', 'second@fleetgate.test']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const [created] = await app.db
      .select({ id: users.id, companyId: users.companyId, role: roles.name })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.email, 'second@fleetgate.test'));
    expect(created).toMatchObject({ companyId: 1, role: 'super_admin' });
    expect(await signIn('second@fleetgate.test', generatedPasswordOf(out)!)).toBe(200);
    expect(await lastAudit('admin.create_super_admin')).toMatchObject({
      actorUserId: null,
      companyId: 1,
      targetId: String(created!.id),
    });
  });

  it('a later start still names the first super admin, whose password the first start printed', async () => {
    await admin(['create-super-admin', 'third@fleetgate.test']);
    // A changed row moves to the end of its table: the first admin after the others.
    await app.db.update(users).set({ updatedAt: new Date() }).where(eq(users.email, ADMIN_EMAIL));
    const result = await seed(app.db, { adminEmail: 'ignored@fleetgate.test' });
    expect(result.admin).toEqual({ email: ADMIN_EMAIL, created: false });
  });

  it('failing-creation: an e-mail already taken is refused', async () => {
    await createUser(app, 'taken@fleetgate.test', 'end_user', 1);
    const { code, err } = await admin(['create-super-admin', 'taken@fleetgate.test']);
    expect(code).toBe(1);
    expect(err).toContain('exists already');
    expect(err).toContain('reset-password taken@fleetgate.test');
  });
});

describe('npm run admin -- help and wrong usage', () => {
  it('help lists the commands and exits 0', async () => {
    const { code, out } = await admin(['help']);
    expect(code).toBe(0);
    expect(out).toContain('reset-password EMAIL');
    expect(out).toContain('create-super-admin EMAIL');
  });

  it('an unknown command, a missing or bad e-mail exit 2 with a hint', async () => {
    for (const argv of [[], ['frobnicate'], ['reset-password'], ['reset-password', 'not-an-email']]) {
      const { code, err } = await admin(argv);
      expect(code).toBe(2);
      expect(err).toContain('npm run admin -- help');
    }
  });
});
