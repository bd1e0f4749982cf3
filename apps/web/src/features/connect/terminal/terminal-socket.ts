import {
  CONNECT_TERMINAL_PATH,
  type TerminalControl,
  type TerminalNotice,
} from '@fleetgate/shared/devices/tunnel';

/** What a connect screen asks for: a device (its own service), a remote entry, or a share link's key. */
export type TerminalTarget = { device_id: number } | { entry_id: number } | { key: string };

export type TerminalEvents = {
  /** Bytes the device's shell wrote. */
  data(bytes: Uint8Array): void;
  notice(notice: TerminalNotice): void;
  /** The socket closed; `clean` when the server closed it after saying why. */
  close(clean: boolean): void;
};

/** The terminal WebSocket's address on this console's own origin (the session cookie goes with it). */
export function terminalUrl(
  target: TerminalTarget,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
  protocol: 'ssh' | 'telnet' = 'ssh',
) {
  return connectUrl(CONNECT_TERMINAL_PATH, target, location, protocol === 'ssh' ? undefined : protocol);
}

/**
 * A console WebSocket's address on this console's own origin (the session cookie goes with
 * it): a remote entry, or a device's own service of `protocol` (the bridge's first by default).
 */
export function connectUrl(
  path: string,
  target: TerminalTarget,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
  protocol?: string,
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query =
    'key' in target
      ? `key=${encodeURIComponent(target.key)}`
      : 'device_id' in target
        ? `device_id=${target.device_id}${protocol ? `&protocol=${protocol}` : ''}`
        : `entry_id=${target.entry_id}`;
  return `${scheme}//${location.host}${path}?${query}`;
}

/**
 * The browser's side of the terminal protocol (server: modules/remote/terminal-bridge.ts): the
 * first text frame signs in to the device, later ones resize; binary frames carry the
 * keystrokes one way and the screen's bytes the other.
 */
export function openTerminal(
  target: TerminalTarget,
  protocol: 'ssh' | 'telnet',
  login: { username: string; password: string; cols: number; rows: number },
  events: TerminalEvents,
) {
  const ws = new WebSocket(terminalUrl(target, window.location, protocol));
  ws.binaryType = 'arraybuffer';
  const control = (message: TerminalControl) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  let told = false;
  ws.onopen = () => control({ type: 'auth', ...login });
  ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
    if (typeof event.data === 'string') {
      const notice = JSON.parse(event.data) as TerminalNotice;
      if (notice.type !== 'connected') told = true;
      events.notice(notice);
    } else events.data(new Uint8Array(event.data));
  };
  ws.onclose = () => events.close(told);
  const encoder = new TextEncoder();
  return {
    /** Keystrokes (xterm's onData): sent as bytes. */
    send(text: string) {
      if (ws.readyState === WebSocket.OPEN) ws.send(encoder.encode(text));
    },
    resize(cols: number, rows: number) {
      control({ type: 'resize', cols, rows });
    },
    close() {
      ws.close(1000);
    },
  };
}

export type TerminalConnection = ReturnType<typeof openTerminal>;
