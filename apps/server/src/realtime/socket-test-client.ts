import { SOCKET } from '@fleetgate/shared/constants';
import type {
  ChannelEventName,
  ChannelEvents,
  ClientToServerEvents,
  ServerToClientEvents,
  SubscribeAck,
} from '@fleetgate/shared/events';
import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';

/** Test helpers only (API tests): a socket.io-client the way a browser holds one. */
export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Listens on a free local port and answers the base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** The Cookie header of a TestClient's jar. */
export function cookieHeader(cookies: ReadonlyMap<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** A socket that does not connect until `opened` is awaited, and never reconnects by itself. */
export function testSocket(url: string, headers: Record<string, string> = {}): TestSocket {
  return io(url, {
    path: SOCKET.path,
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
    autoConnect: false,
  });
}

/** Connects; resolves when connected, rejects with the connect_error. */
export function opened(socket: TestSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
    socket.connect();
  });
}

export function subscribe(socket: TestSocket, channel: unknown): Promise<SubscribeAck> {
  return new Promise((resolve) => socket.emit('subscribe', channel as string, resolve));
}

/** The next `event` on `channel`, or a rejection after `timeoutMs`. */
export function nextChannelEvent<E extends ChannelEventName>(
  socket: TestSocket,
  event: E,
  channel: string,
  timeoutMs = 5000,
): Promise<ChannelEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`no ${event} on ${channel} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (from: string, payload: ChannelEvents[E]) => {
      if (from !== channel) return;
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(payload);
    };
    socket.on(event, listener as never);
  });
}
