import { SOCKET } from '@fleetgate/shared/constants';
import { refreshSession } from '../http/refresh';
import { ChannelHub, type ConsoleSocket } from './channel-hub';

/**
 * Another socket host (product §7: "unless an override URL is configured"); by default the
 * console's own origin.
 */
const OVERRIDE_URL: string | undefined = import.meta.env.VITE_SOCKET_URL || undefined;

/**
 * The browser's socket at /status/socket.io, sending the session cookie.
 *
 * Reconnection: the spec gives two sets of figures, §4 (backoff 100 ms to 10 s, factor 2)
 * and §9 (client delay 1 s, max 5 s, timeout 20 s); both say 5 attempts. We use §9's,
 * the client constants in `SOCKET` of the shared code: 5 attempts, delay 1 s doubling
 * (socket.io's backoff factor is 2, as §4 asks) up to 5 s, handshake timeout 20 s.
 *
 * The socket.io client loads with the first listener, after the page has drawn: no screen's
 * first paint waits for its 12 KB (docs/performance.md, Console first load).
 */
export async function createConsoleSocket(): Promise<ConsoleSocket> {
  const { io } = await import('socket.io-client');
  const options = {
    path: SOCKET.path,
    withCredentials: true,
    autoConnect: false,
    reconnection: true,
    reconnectionAttempts: SOCKET.reconnectionAttempts,
    reconnectionDelay: SOCKET.reconnectionDelayMs,
    reconnectionDelayMax: SOCKET.reconnectionDelayMaxMs,
    timeout: SOCKET.timeoutMs,
  };
  return OVERRIDE_URL ? io(OVERRIDE_URL, options) : io(options);
}

/** The console's one channel hub. */
export const channelHub = new ChannelHub({
  createSocket: createConsoleSocket,
  refreshSession,
  onRefused: (channel, error) => console.warn(`Socket channel ${channel} refused: ${error.message}`),
});
