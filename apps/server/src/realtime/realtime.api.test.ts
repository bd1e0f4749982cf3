import { notificationsChannel, type SubscriptionError } from '@fleetgate/shared/events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import {
  cookieHeader,
  listenLocally,
  nextChannelEvent,
  opened,
  subscribe,
  type TestSocket,
  testSocket,
} from './socket-test-client';

let app: FastifyInstance;
let url: string;
let user: { id: number };
let other: { id: number };
let userClient: TestClient;
const sockets: TestSocket[] = [];

function track(socket: TestSocket): TestSocket {
  sockets.push(socket);
  return socket;
}

const userSocket = (headers: Record<string, string> = {}) =>
  track(testSocket(url, { cookie: cookieHeader(userClient.cookies), ...headers }));

beforeAll(async () => {
  app = await buildTestApp();
  const { acme } = await tenantTree(app);
  user = await createUser(app, 'rt.user@example.test', 'end_user', acme.id);
  other = await createUser(app, 'rt.other@example.test', 'end_user', acme.id);
  userClient = await signedIn(app, 'rt.user@example.test');
  url = await listenLocally(app);
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await app.close();
});

describe('socket handshake (product §7, ARCHITECTURE §1)', () => {
  it('a socket without a session cookie is refused with code 401', async () => {
    const error = await opened(track(testSocket(url))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { data?: unknown }).data).toEqual({ code: 401, message: 'Authentication required' });
  });

  it('a socket with a made-up session cookie is refused', async () => {
    const error = await opened(track(testSocket(url, { cookie: 'fg_session=not-a-session' }))).catch(
      (e: unknown) => e,
    );
    expect((error as { data?: { code: number } }).data?.code).toBe(401);
  });

  it('a socket opened from another site is refused even with a live cookie (CSWSH)', async () => {
    const socket = userSocket({ origin: 'https://evil.example' });
    await expect(opened(socket)).rejects.toThrow();
    expect(socket.connected).toBe(false);
  });

  it('a socket with the user’s cookie and this host’s Origin connects', async () => {
    const socket = userSocket({ origin: url });
    await opened(socket);
    expect(socket.connected).toBe(true);
  });

  it('a signed-out session cannot open a socket', async () => {
    const client = await signedIn(app, 'rt.other@example.test');
    const cookie = cookieHeader(client.cookies);
    await client.post('/api/auth/token/revoke', {});
    const error = await opened(track(testSocket(url, { cookie }))).catch((e: unknown) => e);
    expect((error as { data?: { code: number } }).data?.code).toBe(401);
  });
});

describe('channel subscriptions (product §4 Socket)', () => {
  let socket: TestSocket;
  const refusals: [string, SubscriptionError][] = [];

  beforeAll(async () => {
    socket = userSocket();
    socket.on('subscription_error', (channel, error) => refusals.push([channel, error]));
    await opened(socket);
  });

  it('the user subscribes to their own notifications channel', async () => {
    expect(await subscribe(socket, notificationsChannel(user.id))).toEqual({ ok: true });
  });

  it("subscribing to another user's channel answers subscription_error with code 403", async () => {
    const channel = notificationsChannel(other.id);
    const ack = await subscribe(socket, channel);
    expect(ack).toMatchObject({ ok: false, code: 403 });
    await expect.poll(() => refusals.find(([c]) => c === channel)?.[1].code).toBe(403);
  });

  it('a channel no rule claims is refused (deny by default)', async () => {
    expect(await subscribe(socket, 'action.1')).toMatchObject({ ok: false, code: 403 });
    expect(await subscribe(socket, 'private-notifications.1x')).toMatchObject({ ok: false, code: 403 });
    expect(await subscribe(socket, socket.id)).toMatchObject({ ok: false, code: 403 });
  });

  it('malformed channel names are refused with 400, and the socket stays usable', async () => {
    for (const bad of [{ $ne: 1 }, 42, '', 'a'.repeat(201), 'x y', null]) {
      expect(await subscribe(socket, bad)).toMatchObject({ ok: false, code: 400 });
    }
    expect(socket.connected).toBe(true);
  });

  it('events published on a subscribed channel arrive with their channel; after unsubscribe they stop', async () => {
    const channel = notificationsChannel(user.id);
    const payload = {
      id: 1,
      type: 'message',
      summary: 'hello',
      data: null,
      created_at: new Date().toISOString(),
      seen_at: null,
    };
    const received = nextChannelEvent(socket, 'WebNotificationCreated', channel);
    app.realtime.publish(channel, 'WebNotificationCreated', payload);
    expect(await received).toEqual(payload);

    await new Promise((resolve) => socket.emit('unsubscribe', channel, resolve));
    const silent = nextChannelEvent(socket, 'WebNotificationCreated', channel, 300);
    app.realtime.publish(channel, 'WebNotificationCreated', { ...payload, id: 2 });
    await expect(silent).rejects.toThrow(/no WebNotificationCreated/);
  });

  it('features extend the channel table with their own rules', async () => {
    app.realtime.addChannelRule({
      name: 'test-even',
      pattern: /^test\.(\d+)$/,
      authorize: (_identity, match) => Number(match[1]) % 2 === 0,
    });
    expect(await subscribe(socket, 'test.2')).toEqual({ ok: true });
    expect(await subscribe(socket, 'test.3')).toMatchObject({ ok: false, code: 403 });
    expect(() =>
      app.realtime.addChannelRule({ name: 'loose', pattern: /test/, authorize: () => true }),
    ).toThrow(/anchor/);
  });
});

describe('socket lifetime', () => {
  it('disconnectSession drops the sockets of a session', async () => {
    const client = await signedIn(app, 'rt.other@example.test');
    const socket = track(testSocket(url, { cookie: cookieHeader(client.cookies) }));
    await opened(socket);
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const session = await app.authService.resolve(client.cookies.get('fg_session')!);
    app.realtime.disconnectSession(session!.id);
    expect(await gone).toBe('io server disconnect');
  });
});

describe('shutdown', () => {
  it('closing the app drops connected sockets instead of waiting for them', async () => {
    const own = await buildTestApp();
    const { acme } = await tenantTree(own);
    await createUser(own, 'rt.close@example.test', 'end_user', acme.id);
    const client = await signedIn(own, 'rt.close@example.test');
    const ownUrl = await listenLocally(own);
    const socket = track(testSocket(ownUrl, { cookie: cookieHeader(client.cookies) }));
    await opened(socket);
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await gone).toMatch(/disconnect|close/);
    expect(own.realtime.connectedCount()).toBe(0);
  });
});
