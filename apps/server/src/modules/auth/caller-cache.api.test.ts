import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import { buildTestApp, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { createCallerCache } from './caller-cache';

/**
 * The callers of recent requests are kept in memory, so a signed-in request that needs
 * only its caller asks the database nothing; every change of what a caller carries drops
 * it at once, whoever made the change (the API, or SQL typed by an operator).
 */
let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'cache.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'cache.user@x.test', 'end_user', tree.north.id);
});
afterAll(() => app.close());

/** Counts the statements the database runs while `fn` runs. */
async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
  const client = (app.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  let n = 0;
  client.query = (...args: unknown[]) => {
    n++;
    return query.apply(client, args);
  };
  try {
    await fn();
  } finally {
    client.query = query;
  }
  return n;
}

const me = async (client: TestClient) => (await client.get('/api/user')).json().data;

describe('the caller of a signed-in request comes from memory', () => {
  it('GET /api/user runs no statement once its caller is kept', async () => {
    const client = await signedIn(app, 'cache.user@x.test');
    expect((await client.get('/api/user')).statusCode).toBe(200);
    // Only the requests' own statements count: no waiting for notifications between them.
    client.settleFirst = false;
    const statements = await statementsDuring(async () => {
      for (let i = 0; i < 5; i++) expect((await client.get('/api/user')).statusCode).toBe(200);
    });
    expect(statements).toBe(0);
  });

  it('signing out refuses the old cookie on the very next request', async () => {
    const client = await signedIn(app, 'cache.user@x.test');
    const kept = new TestClient(app);
    for (const [k, v] of client.cookies) kept.cookies.set(k, v);
    expect((await kept.get('/api/user')).statusCode).toBe(200);
    expect((await client.post('/api/auth/token/revoke')).statusCode).toBe(200);
    expect((await kept.get('/api/user')).statusCode).toBe(401);
  });

  it('a role changed by an admin shows on the user’s next request', async () => {
    const user = await signedIn(app, 'cache.user@x.test');
    expect((await me(user)).permissions).not.toContain('view_companies');
    const admin = await signedIn(app, 'cache.admin@x.test');
    const [target] = await app.db.select().from(users).where(eq(users.email, 'cache.user@x.test'));
    const [adminRole] = await app.db.select().from(roles).where(eq(roles.name, 'admin'));
    const changed = await admin.put(`/api/users/${target!.id}/role`, { role_id: adminRole!.id });
    expect(changed.statusCode).toBe(200);
    expect((await me(user)).permissions).toContain('view_companies');
    await admin.put(`/api/users/${target!.id}/role`, {
      role_id: (await app.db.select().from(roles).where(eq(roles.name, 'end_user')))[0]!.id,
    });
    expect((await me(user)).permissions).not.toContain('view_companies');
  });

  it('a change typed in SQL, outside the API, shows at once too', async () => {
    const user = await signedIn(app, 'cache.user@x.test');
    expect((await me(user)).company.name).toBe('Acme North');
    await app.db.update(companies).set({ name: 'Acme North Renamed' }).where(eq(companies.id, tree.north.id));
    // On PostgreSQL the announcement comes over another connection: it has arrived once settled.
    await app.callers.settle();
    expect((await me(user)).company.name).toBe('Acme North Renamed');
    await app.db
      .update(users)
      .set({ username: 'Renamed by SQL' })
      .where(eq(users.email, 'cache.user@x.test'));
    await app.callers.settle();
    expect((await me(user)).username).toBe('Renamed by SQL');
    await app.db.update(companies).set({ name: 'Acme North' }).where(eq(companies.id, tree.north.id));
  });

  it('a kept caller whose session went idle by the clock is asked of the database again', async () => {
    const client = await signedIn(app, 'cache.user@x.test');
    await client.get('/api/user');
    const token = client.cookies.get('fg_session')!;
    expect(await statementsDuring(() => app.callers.resolve(token))).toBe(0);
    const later = new Date(Date.now() + (app.config.sessionIdleMinutes + 1) * 60_000);
    expect(await statementsDuring(() => app.callers.resolve(token, later))).toBeGreaterThan(0);
  });
});

describe('the cache on its own (a database that only announces)', () => {
  /** A database whose notifications the test sends by hand. */
  function announcing() {
    const listeners: { onMessage(p: string): void; onGap(): void }[] = [];
    const database = {
      kind: 'pglite',
      db: app.db,
      listen: async (_channel: string, listener: (typeof listeners)[number]) => {
        listeners.push(listener);
        return async () => {};
      },
      notify: async () => {},
      close: async () => {},
    } as unknown as Database;
    return {
      database,
      say: (payload: string) => {
        for (const l of listeners) l.onMessage(payload);
      },
      gap: () => {
        for (const l of listeners) l.onGap();
      },
    };
  }

  it('drops the caller a change names, keeps the others, and forgets everyone after a gap', async () => {
    const bus = announcing();
    const cache = await createCallerCache({ database: bus.database, auth: app.authService });
    const a = await signedIn(app, 'cache.user@x.test');
    const b = await signedIn(app, 'cache.admin@x.test');
    const callerA = await cache.resolve(a.cookies.get('fg_session')!);
    await cache.resolve(b.cookies.get('fg_session')!);
    expect(cache.size()).toBe(2);
    bus.say(`u:${callerA!.principal.id}`);
    expect(cache.size()).toBe(1);
    bus.say('d:1');
    expect(cache.size()).toBe(1);
    bus.say(`r:${callerA!.principal.role.id + 1000}`);
    expect(cache.size()).toBe(1);
    bus.gap();
    expect(cache.size()).toBe(0);
    await cache.close();
  });

  it('keeps a caller no longer than its time, even when nothing is announced', async () => {
    const bus = announcing();
    const cache = await createCallerCache({ database: bus.database, auth: app.authService, keepMs: 0 });
    const a = await signedIn(app, 'cache.user@x.test');
    const token = a.cookies.get('fg_session')!;
    await cache.resolve(token);
    const statements = await statementsDuring(() => cache.resolve(token));
    expect(statements).toBeGreaterThan(0);
    await cache.close();
  });
});
