import WebSocket from 'ws';
import type { TestClient } from './app';

/** A signed-in test client's cookies as a Cookie header, for requests made outside inject (sockets, fetch). */
export const cookieHeader = (client: TestClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/**
 * Opens a WebSocket to the running server: the socket once it is open, or the HTTP status
 * that refused the upgrade.
 */
export function openSocket(
  url: string,
  options: { client?: TestClient | undefined; origin: string; headers?: Record<string, string> },
) {
  return new Promise<{ ws: WebSocket } | { status: number }>((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), {
      headers: {
        ...(options.client ? { cookie: cookieHeader(options.client) } : {}),
        origin: options.origin,
        ...options.headers,
      },
    });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    ws.once('error', reject);
  });
}
