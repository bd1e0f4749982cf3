import { type AddressInfo, createServer, type Socket } from 'node:net';
import {
  CR,
  DO,
  DONT,
  ECHO,
  escapeIac,
  IAC,
  LF,
  NAWS,
  NUL,
  SB,
  SE,
  SGA,
  TTYPE,
  TTYPE_SEND,
  WILL,
  WONT,
} from '@fleetgate/shared/devices/telnet';
import { interactiveShell, type ShellChannel } from './interactive-shell';
import { sameText } from './same-text';
import type { ServiceAddress, ServiceDevice } from './services';

/** Longest subnegotiation a client may send (NAWS needs 5 bytes, a terminal type about 40). */
const MAX_SUBNEGOTIATION = 64;
/** Longest user name or password line; anything longer is an attack, not a person. */
const MAX_LOGIN_LINE = 256;
const MAX_LOGIN_FAILURES = 3;
/** How long a connection may sit at the login prompt, as telnetd's login does. */
const LOGIN_TIMEOUT_MS = 60_000;

/** Options the device does itself (it echoes, and never sends go-ahead). */
const OURS = new Set([ECHO, SGA]);
/** Options the device asks the client to do. */
const THEIRS = new Set([NAWS, TTYPE]);

/** The telnet server a simulated device runs: its address, and how to stop it. */
export type TelnetServer = { address: ServiceAddress; close(): Promise<void> };

/** RFC 1143 option states; the device only ever asks to enable, so no WANTNO. */
type OptionState = 'no' | 'yes' | 'wantyes';
type ParseState = 'data' | 'iac' | 'option' | 'sb' | 'sb-iac';
type Phase = 'user' | 'password' | 'shell' | 'closed';

/**
 * Text to the network virtual terminal: lines end with CR LF, and a CR alone is sent as CR NUL
 * (RFC 854), so that a client never mistakes the shell's own CR for a line end.
 */
const toNvt = (text: string) =>
  escapeIac(Buffer.from(text.replace(/\r?\n/g, '\r\n').replace(/\r(?!\n)/g, '\r\0')));

/**
 * The device's telnet service, reached through a remote access tunnel (docs/device-protocol.md
 * §9): the user `admin` and the device's password at a login prompt, then the same interactive
 * shell as SSH. Listens on a loopback port.
 */
export async function startTelnetServer(device: ServiceDevice): Promise<TelnetServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, device);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A failing accept must not bring the device down.
  server.on('error', () => {});
  return {
    address: { host: '127.0.0.1', port: (server.address() as AddressInfo).port },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serveConnection(socket: Socket, device: ServiceDevice) {
  const size = { rows: 24, cols: 80 };
  const us = new Map<number, OptionState>();
  const him = new Map<number, OptionState>();
  const refused = new Set<string>();
  let state: ParseState = 'data';
  let verb = 0;
  let sb: number[] = [];
  let afterCr = false;
  let phase: Phase = 'user';
  let line: number[] = [];
  let user = '';
  let failures = 0;
  const shellListeners: ((chunk: Buffer) => void)[] = [];
  /** Bytes of the current chunk the shell will read. */
  let shellInput: number[] = [];

  const send = (bytes: Uint8Array | string) => {
    if (!socket.destroyed && socket.writable) socket.write(typeof bytes === 'string' ? toNvt(bytes) : bytes);
  };
  const command = (...bytes: number[]) => send(Buffer.from(bytes));
  const close = () => {
    phase = 'closed';
    clearTimeout(loginTimer);
    socket.end(() => socket.destroy());
  };
  const kill = () => {
    phase = 'closed';
    clearTimeout(loginTimer);
    socket.destroy();
  };
  const hostname = () => device.shellDevice().hostname;
  const loginTimer = setTimeout(close, LOGIN_TIMEOUT_MS);
  loginTimer.unref();

  // RFC 1143: answer a request only when it changes the option's state, and refuse an
  // unsupported option once, so that two sides that disagree never loop.
  const refuse = (reply: number, option: number) => {
    const key = `${reply}:${option}`;
    if (refused.has(key)) return;
    refused.add(key);
    command(IAC, reply, option);
  };
  const negotiate = (request: number, option: number) => {
    if (request === DO || request === DONT) {
      const current = us.get(option) ?? 'no';
      if (request === DO) {
        if (!OURS.has(option)) return refuse(WONT, option);
        if (current === 'no') command(IAC, WILL, option);
        us.set(option, 'yes');
      } else if (current !== 'no') {
        if (current === 'yes') command(IAC, WONT, option);
        us.set(option, 'no');
      }
      return;
    }
    const current = him.get(option) ?? 'no';
    if (request === WILL) {
      if (!THEIRS.has(option)) return refuse(DONT, option);
      if (current === 'yes') return;
      if (current === 'no') command(IAC, DO, option);
      him.set(option, 'yes');
      // RFC 1091: the server asks for the type once the client agreed to tell it.
      if (option === TTYPE) command(IAC, SB, TTYPE, TTYPE_SEND, IAC, SE);
    } else if (current !== 'no') {
      if (current === 'yes') command(IAC, DONT, option);
      him.set(option, 'no');
    }
  };
  const subnegotiation = (bytes: number[]) => {
    // RFC 1073: width and height as 16-bit big-endian numbers; 0 means "not known".
    if (bytes[0] === NAWS && bytes.length === 5 && him.get(NAWS) === 'yes') {
      const cols = (bytes[1]! << 8) | bytes[2]!;
      const rows = (bytes[3]! << 8) | bytes[4]!;
      if (cols > 0) size.cols = cols;
      if (rows > 0) size.rows = rows;
    }
    // The terminal type (TTYPE IS) changes nothing: the simulator's shell has no colours.
  };

  const loginPrompt = () => send(`${hostname()} login: `);
  const loginLine = () => {
    const text = Buffer.from(line).toString('utf8');
    line = [];
    send('\n');
    if (phase === 'user') {
      if (!text.trim()) return loginPrompt();
      user = text.trim();
      phase = 'password';
      return send('Password: ');
    }
    // Both compared every time, so the answer's timing tells nothing about which was wrong.
    const userOk = sameText(user, 'admin');
    const passwordOk = sameText(text, device.password);
    if (userOk && passwordOk) return startShell();
    failures += 1;
    send('Login incorrect\n');
    if (failures >= MAX_LOGIN_FAILURES) return close();
    phase = 'user';
    send('\n');
    loginPrompt();
  };
  const loginByte = (byte: number) => {
    if (byte === CR) return loginLine();
    if (byte === 0x7f || byte === 0x08) {
      if (line.length > 0) {
        line.pop();
        if (phase === 'user') send('\b \b');
      }
      return;
    }
    if (byte < 0x20) return;
    line.push(byte);
    if (line.length > MAX_LOGIN_LINE) return kill();
    // The device said WILL ECHO: it echoes the user name, never the password (RFC 857).
    if (phase === 'user') send(escapeIac(Buffer.from([byte])));
  };
  const startShell = () => {
    phase = 'shell';
    clearTimeout(loginTimer);
    const channel: ShellChannel = {
      write: (text) => send(text),
      on: (_event, listener) => shellListeners.push(listener),
      // Telnet has no exit status: the session ends by closing the connection.
      exit: () => {},
      end: close,
    };
    interactiveShell(channel, device, size);
  };

  // RFC 854: CR NUL and CR LF both end a line (a bare LF too, as clients in the wild send it).
  const dataByte = (byte: number) => {
    if (afterCr) {
      afterCr = false;
      if (byte === NUL || byte === LF) return;
    }
    if (byte === CR) afterCr = true;
    if (byte === NUL) return;
    const input = byte === LF ? CR : byte;
    if (phase === 'shell') shellInput.push(input);
    else loginByte(input);
  };
  const afterIac = (byte: number) => {
    if (byte === IAC) {
      state = 'data';
      dataByte(IAC);
    } else if (byte >= WILL && byte <= DONT) {
      verb = byte;
      state = 'option';
    } else if (byte === SB) {
      sb = [];
      state = 'sb';
    } else state = 'data'; // NOP, GA, AYT and the others need nothing from a shell
  };
  const pushSb = (byte: number) => {
    sb.push(byte);
    if (sb.length > MAX_SUBNEGOTIATION) kill();
  };
  const feed = (chunk: Buffer) => {
    for (const byte of chunk) {
      if (phase === 'closed') return;
      switch (state) {
        case 'data':
          if (byte === IAC) state = 'iac';
          else dataByte(byte);
          break;
        case 'iac':
          afterIac(byte);
          break;
        case 'option':
          state = 'data';
          negotiate(verb, byte);
          break;
        case 'sb':
          if (byte === IAC) state = 'sb-iac';
          else pushSb(byte);
          break;
        case 'sb-iac':
          if (byte === IAC) {
            state = 'sb';
            pushSb(IAC);
          } else if (byte === SE) {
            state = 'data';
            subnegotiation(sb);
          } else afterIac(byte); // RFC 855 leaves IAC <command> inside SB undefined: drop the SB
          break;
      }
    }
  };

  socket.on('data', (chunk: Buffer) => {
    try {
      socket.cork();
      feed(chunk);
      const input = Buffer.from(shellInput);
      shellInput = [];
      if (input.length > 0 && phase === 'shell') for (const listener of shellListeners) listener(input);
    } catch {
      // Whatever a client sends ends its own connection, never the device.
      kill();
    } finally {
      socket.uncork();
    }
  });
  socket.on('error', () => kill());
  socket.once('close', () => {
    phase = 'closed';
    clearTimeout(loginTimer);
  });

  us.set(ECHO, 'wantyes');
  us.set(SGA, 'wantyes');
  him.set(NAWS, 'wantyes');
  him.set(TTYPE, 'wantyes');
  command(IAC, WILL, ECHO, IAC, WILL, SGA, IAC, DO, NAWS, IAC, DO, TTYPE);
  const info = device.shellDevice();
  send(`Fleetgate simulator ${info.model} ${info.serial} (telnet)\n\n`);
  loginPrompt();
}
