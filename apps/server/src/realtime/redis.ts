import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';

export type RedisLink = {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
};

/** How long the start waits for Redis before giving up with a plain message (under Fastify's 10 s plugin timeout). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * The socket.io Redis adapter of ARCHITECTURE §1: every instance publishes room
 * broadcasts through Redis, so a notification reaches a browser connected to any
 * instance. One client publishes, a duplicate subscribes (Redis needs a connection of
 * its own for subscriptions).
 */
export async function connectRedisAdapter(
  url: string,
  prefix: string,
  log: FastifyBaseLogger,
): Promise<RedisLink> {
  const pub = createClient({
    url,
    socket: {
      connectTimeout: 5000,
      // Keep trying after a lost connection; broadcasts resume once Redis is back.
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000),
    },
  });
  const sub = pub.duplicate();
  // The URL may hold a password: log the error's words, never the URL.
  for (const client of [pub, sub]) {
    client.on('error', (error: Error) => log.warn({ error: error.message }, 'redis connection error'));
  }
  // A client still trying to connect would retry for ever: destroy it instead of waiting.
  const close = async () => {
    await Promise.allSettled(
      [pub, sub].map(async (client) => {
        if (client.isReady) await client.close();
        else if (client.isOpen) client.destroy();
      }),
    );
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all([pub.connect(), sub.connect()]),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Cannot reach Redis (REDIS_URL) within ${CONNECT_TIMEOUT_MS / 1000} s`)),
          CONNECT_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    await close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { adapter: createAdapter(pub, sub, { key: `${prefix}.socket.io` }), close };
}
