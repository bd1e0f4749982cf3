import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChannelHub } from './channel-hub';
import { asConsoleSocket, FakeSocket } from './fake-socket';

const note = (id: number): WebNotification => ({
  id,
  type: 'message',
  summary: `n${id}`,
  data: null,
  created_at: '2025-01-01T00:00:00.000Z',
  seen_at: null,
});

let sockets: FakeSocket[];
let refresh: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
let hub: ChannelHub;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  refresh = vi.fn(async () => true);
  hub = new ChannelHub({
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return asConsoleSocket(socket);
    },
    refreshSession: refresh,
  });
});
afterEach(() => {
  hub.close();
  vi.useRealTimers();
});

describe('channel hub (product §4 Socket, §7 subscribe/unsubscribe)', () => {
  it('opens one socket with the first listener and subscribes once per channel when connected', () => {
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.connects).toBe(1);
    sockets[0]!.open();
    expect(sockets[0]!.subscriptions()).toEqual(['private-notifications.5']);
  });

  it('delivers an event only to the listeners of its channel', () => {
    const mine = vi.fn();
    const other = vi.fn();
    hub.listen('private-notifications.5', 'WebNotificationCreated', mine);
    hub.listen('action.9', 'WebNotificationCreated', other);
    sockets[0]!.open();
    sockets[0]!.receive('WebNotificationCreated', 'private-notifications.5', note(1));
    expect(mine).toHaveBeenCalledWith(note(1));
    expect(other).not.toHaveBeenCalled();
  });

  it('subscribes again after a reconnection (the server forgot the old connection)', () => {
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    socket.open();
    socket.connected = false;
    socket.open();
    expect(socket.subscriptions()).toEqual(['private-notifications.5', 'private-notifications.5']);
  });

  it('unsubscribes when the last listener of a channel leaves, and closes the idle socket', () => {
    const stopA = hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const stopB = hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    socket.open();
    stopA();
    expect(socket.unsubscriptions()).toEqual([]);
    stopB();
    expect(socket.unsubscriptions()).toEqual(['private-notifications.5']);
    expect(socket.connected).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(socket.connected).toBe(false);
  });

  it('keeps the socket when a listener comes back at once (a remount)', () => {
    const stop = hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    sockets[0]!.open();
    stop();
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.connected).toBe(true);
  });

  it('a subscription_error with code 403 unsubscribes and is not asked again on reconnection', () => {
    const refused = vi.fn();
    hub = new ChannelHub({
      createSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return asConsoleSocket(socket);
      },
      refreshSession: refresh,
      onRefused: refused,
    });
    hub.listen('private-notifications.6', 'WebNotificationCreated', () => {});
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    socket.open();
    socket.receive('subscription_error', 'private-notifications.6', { code: 403, message: 'no' });
    expect(refused).toHaveBeenCalledWith('private-notifications.6', { code: 403, message: 'no' });
    expect(socket.unsubscriptions()).toEqual(['private-notifications.6']);
    expect(hub.channels()).toEqual(['private-notifications.5']);
    socket.connected = false;
    socket.open();
    expect(socket.subscriptions().filter((c) => c === 'private-notifications.6')).toHaveLength(1);
  });

  it('a handshake refused with 401 renews the session once and connects again', async () => {
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    const refusal = Object.assign(new Error('Authentication required'), {
      data: { code: 401, message: 'Authentication required' },
    });
    socket.receive('connect_error', refusal);
    await vi.waitFor(() => expect(socket.connects).toBe(2));
    socket.receive('connect_error', refusal);
    await Promise.resolve();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket.connects).toBe(2);
  });

  it('other connection errors are left to socket.io’s own reconnection', () => {
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    sockets[0]!.receive('connect_error', new Error('xhr poll error'));
    expect(refresh).not.toHaveBeenCalled();
  });
});

describe('live state', () => {
  it('a channel is live once the server acknowledges it, and not after a disconnection', () => {
    const changes = vi.fn();
    hub.watch(changes);
    hub.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    socket.open();
    expect(hub.isLive('private-notifications.5')).toBe(false);
    socket.acknowledgeSubscriptions();
    expect(hub.isLive('private-notifications.5')).toBe(true);
    socket.connected = false;
    socket.receive('disconnect', 'transport close');
    expect(hub.isLive('private-notifications.5')).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('a refused channel never becomes live', () => {
    hub.listen('private-notifications.6', 'WebNotificationCreated', () => {});
    const socket = sockets[0]!;
    socket.open();
    socket.acknowledgeSubscriptions({ ok: false, code: 403, message: 'no' });
    expect(hub.isLive('private-notifications.6')).toBe(false);
  });
});

describe('channel hub with a socket whose library loads on demand', () => {
  /** A hub whose socket comes when the test releases it, as `import('socket.io-client')` does. */
  function lateHub() {
    const made: FakeSocket[] = [];
    let release: () => void = () => {};
    const late = new ChannelHub({
      createSocket: () =>
        new Promise((resolve) => {
          release = () => {
            const socket = new FakeSocket();
            made.push(socket);
            resolve(asConsoleSocket(socket));
          };
        }),
      refreshSession: refresh,
    });
    const arrive = async () => {
      release();
      await Promise.resolve();
    };
    return { late, made, release: arrive };
  }

  it('listeners that came before the socket are wired, subscribed and served once it arrives', async () => {
    const { late, made, release } = lateHub();
    const handler = vi.fn();
    late.listen('private-notifications.5', 'WebNotificationCreated', handler);
    late.listen('action.9', 'WebNotificationCreated', () => {});
    expect(made).toHaveLength(0);
    await release();
    expect(made).toHaveLength(1);
    expect(made[0]!.connects).toBe(1);
    made[0]!.open();
    expect(made[0]!.subscriptions()).toEqual(['private-notifications.5', 'action.9']);
    made[0]!.receive('WebNotificationCreated', 'private-notifications.5', note(2));
    expect(handler).toHaveBeenCalledWith(note(2));
    late.close();
  });

  it('asks for one socket however many listeners come while it loads', async () => {
    let asked = 0;
    const late = new ChannelHub({
      createSocket: () => {
        asked += 1;
        return new Promise(() => {});
      },
      refreshSession: refresh,
    });
    late.listen('a', 'WebNotificationCreated', () => {});
    late.listen('b', 'WebNotificationCreated', () => {});
    expect(asked).toBe(1);
    late.close();
  });

  it('a socket that arrives after the hub closed is never connected', async () => {
    const { late, made, release } = lateHub();
    late.listen('private-notifications.5', 'WebNotificationCreated', () => {});
    late.close();
    await release();
    expect(made).toHaveLength(1);
    expect(made[0]!.connects).toBe(0);
  });
});
