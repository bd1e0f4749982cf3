import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { notificationsChannel } from '@fleetgate/shared/events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, testConfig } from '#test/app';
import { openTestDatabase } from '#test/database';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { build } from '../app';
import type { Database } from '../db/database';
import {
  cookieHeader,
  listenLocally,
  nextChannelEvent,
  opened,
  subscribe,
  type TestSocket,
  testSocket,
} from './socket-test-client';

/** The machine's Redis (ARCHITECTURE §1); TEST_REDIS_URL points elsewhere. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Each run its own channels: the PGlite and PostgreSQL projects run this file at the same time. */
const REDIS_PREFIX = `fleetgate-test-${randomUUID()}`;

function reachable(redisUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

const redisUp = await reachable(REDIS_URL);
if (!redisUp) {
  console.warn(
    `Skipping the socket.io Redis adapter tests: no Redis at ${REDIS_URL} (start redis-server or set TEST_REDIS_URL).`,
  );
}

/**
 * Two server instances sharing one database and one Redis, as in a scaled-out deployment:
 * a notification stored through instance B reaches a browser connected to instance A.
 */
describe.skipIf(!redisUp)('realtime across instances (REDIS_URL)', () => {
  let database: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let socket: TestSocket;
  let userId: number;
  let urlA: string;
  let acmeId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    // Both apps close the shared database on shutdown; only the second close may really close it.
    let opens = 2;
    const shared: Database = {
      ...database,
      close: async () => {
        opens -= 1;
        if (opens === 0) await database.close();
      },
    };
    a = await build(testConfig({ REDIS_URL, REDIS_PREFIX }), { database: shared });
    b = await build(testConfig({ REDIS_URL, REDIS_PREFIX }), { database: shared });
    const { acme } = await tenantTree(a);
    acmeId = acme.id;
    userId = (await createUser(a, 'redis.user@example.test', 'end_user', acme.id)).id;
    const client = await signedIn(a, 'redis.user@example.test');
    urlA = await listenLocally(a);
    await listenLocally(b);
    socket = testSocket(urlA, { cookie: cookieHeader(client.cookies) });
    await opened(socket);
    expect(await subscribe(socket, notificationsChannel(userId))).toEqual({ ok: true });
  });

  afterAll(async () => {
    socket?.disconnect();
    await a?.close();
    await b?.close();
  });

  it('a notification created on instance B arrives live on a socket connected to instance A', async () => {
    // Unique words: other test runs may share this Redis.
    const summary = `Across instances ${randomUUID()}`;
    const received = nextChannelEvent(socket, 'WebNotificationCreated', notificationsChannel(userId));
    const [stored] = await b.notifications.notify([userId], { type: 'message', summary });
    const payload = await received;
    expect(payload.summary).toBe(summary);
    expect(payload.id).toBe(stored?.id);
  });

  it('failing-deleted-elsewhere: a user deleted through instance B loses the socket held on instance A', async () => {
    const email = 'redis.deleted@example.test';
    const user = await createUser(a, email, 'end_user', acmeId);
    const client = await signedIn(a, email);
    const held = testSocket(urlA, { cookie: cookieHeader(client.cookies) });
    const ended = new Promise<string>((resolve) => held.once('disconnect', resolve));
    await opened(held);
    expect(await subscribe(held, notificationsChannel(user.id))).toEqual({ ok: true });
    const admin = await new TestClient(b).login();
    expect((await admin.request('DELETE', '/api/admin/users', { email })).statusCode).toBe(200);
    expect(await ended).toBe('io server disconnect');
  });

  it('an instance closes its Redis link on shutdown without hanging', async () => {
    const own = await build(testConfig({ REDIS_URL, REDIS_PREFIX }), { database: await openTestDatabase() });
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('REDIS_URL that cannot be reached', () => {
  it('stops the start with a plain message that does not show the URL', async () => {
    const secretUrl = 'redis://:hunter2@127.0.0.1:1';
    const database = await openTestDatabase();
    try {
      const error = await build(testConfig({ REDIS_URL: secretUrl }), { database }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Cannot reach Redis \(REDIS_URL\)/);
      expect((error as Error).message).not.toContain('hunter2');
    } finally {
      await database.close();
    }
  }, 30_000);
});
