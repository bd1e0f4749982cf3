/**
 * Remote access tunnels (docs/device-protocol.md §7). The device only connects outwards: asked
 * by an `open_stream` command, it opens a WebSocket to the server's TUNNEL_PATH, proves who it
 * is with its secret and the stream's single-use token, and carries one TCP stream to a
 * service of its own or of its LAN, binary frames both ways.
 */
export const TUNNEL_PATH = '/tunnel';

/** What the device sends when it connects the stream's WebSocket (lower case: Node's header names). */
export const TUNNEL_HEADERS = {
  serial: 'x-fleetgate-serial',
  secret: 'x-fleetgate-secret',
  token: 'x-fleetgate-stream-token',
} as const;

/** How long the server waits for the device to connect a stream it asked for (also the command's TTL). */
export const STREAM_OPEN_SECONDS = 20;

/** Bytes of a stream token before base64url: 256 bits, guessed by nobody. */
export const STREAM_TOKEN_BYTES = 32;

/** The ports each remote protocol uses unless an entry names another (product §9). */
export const REMOTE_DEFAULT_PORTS = {
  ssh: 22,
  sftp: 22,
  telnet: 23,
  http: 80,
  https: 443,
  rdp: 3389,
  vnc: 5900,
} as const;
/** Every protocol a remote entry may have: those above, and plain TCP for port forwards (its port is required). */
export const REMOTE_PROTOCOLS = ['ssh', 'sftp', 'telnet', 'http', 'https', 'vnc', 'rdp', 'tcp'] as const;
export type RemoteProtocol = (typeof REMOTE_PROTOCOLS)[number];

/** The port a protocol uses unless an entry names another; none for plain TCP. */
export function defaultPortOf(protocol: RemoteProtocol): number | undefined {
  return protocol === 'tcp' ? undefined : REMOTE_DEFAULT_PORTS[protocol];
}

/**
 * Whether a remote entry may reach this host: the device itself or an IPv4 address of a
 * private LAN (10/8, 172.16/12, 192.168/16). Nothing else: a tunnel is a way into the
 * customer's network, not out to the internet from the device.
 */
export function isReachableHost(host: string): boolean {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255))
    return false;
  const [a, b] = parts.map(Number) as [number, number, number, number];
  if (host === DEVICE_SELF_HOST) return true;
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** The address a device's own services answer at, as a stream names them. */
export const DEVICE_SELF_HOST = '127.0.0.1';

/** The console's terminal WebSocket (ssh), and its control messages (text frames; data is binary). */
export const CONNECT_TERMINAL_PATH = '/connect/terminal';
export type TerminalControl =
  | { type: 'auth'; username: string; password: string; cols: number; rows: number }
  | { type: 'resize'; cols: number; rows: number };
export type TerminalNotice =
  | { type: 'connected'; host_key: string; session_id: string }
  | { type: 'error'; message: string }
  | { type: 'closed'; reason: string };

/**
 * The console's desktop WebSocket (VNC): the RFB bytes themselves, binary frames both ways,
 * drawn by noVNC. Why it ended travels in the close frame: a code of DESKTOP_CLOSE and the
 * reason in words.
 */
export const CONNECT_DESKTOP_PATH = '/connect/desktop';
export const DESKTOP_CLOSE = { ended: 4000, failed: 4001 } as const;
