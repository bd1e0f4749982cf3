import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';

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
  TTYPE_IS,
  TTYPE_SEND,
  WILL,
  WONT,
} from '@fleetgate/shared/devices/telnet';

/** Longest subnegotiation a device may send; a real one (a terminal type, a status) is far shorter. */
const MAX_SUBNEGOTIATION = 1024;
/** Option requests a device may send in a session; a real one sends a dozen or two. */
const MAX_NEGOTIATIONS = 200;
/** The sign-in prompts are answered only this early in the session, never later in the shell. */
const LOGIN_WINDOW_MS = 10_000;
const LOGIN_WINDOW_BYTES = 8 * 1024;
/** Longest terminal type RFC 1091 allows. */
const MAX_TERMINAL_TYPE = 40;

const MALFORMED = 'The device sent a malformed telnet negotiation';

/** Options the client does itself: report the window and the terminal type. */
const OURS = new Set([NAWS, TTYPE]);
/** Options the client lets the device do: echo what is typed, and drop go-aheads. */
const THEIRS = new Set([ECHO, SGA]);

/** RFC 1143 option states; the client never asks first, so only the answering side's. */
type OptionState = 'no' | 'yes';
type ParseState = 'data' | 'iac' | 'option' | 'sb' | 'sb-iac';

export type TelnetOptions = {
  /** The terminal's window, sent to the device when it asks for NAWS (RFC 1073). */
  cols: number;
  rows: number;
  /** What RFC 1091 TERMINAL-TYPE answers; XTERM-256COLOR unless told. */
  terminalType?: string;
  /**
   * Answers the device's `login:` and `Password:` prompts, once each and only at the start of
   * the session (the first 10 seconds and 8 KB of output), so a later prompt in the shell is
   * left to the user.
   */
  login?: { username: string; password: string };
};

export type TelnetEvents = {
  /** What the device printed, without telnet commands: bytes for the terminal. */
  data: [chunk: Buffer];
  /** The session ended: the device or the tunnel closed it, or it failed. Emitted once. */
  close: [];
  /** A malformed negotiation or a broken stream; `close` follows. Emitted only when listened to. */
  error: [error: Error];
};

/**
 * What the user types, as the network virtual terminal wants it: 0xFF doubled, and a CR not
 * followed by LF sent as CR NUL (RFC 854), since binary mode is never agreed.
 */
function encodeInput(bytes: Buffer): Buffer {
  if (!bytes.includes(IAC) && !bytes.includes(CR)) return bytes;
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    out.push(byte);
    if (byte === IAC) out.push(IAC);
    else if (byte === CR && bytes[i + 1] !== LF) out.push(NUL);
  }
  return Buffer.from(out);
}

const clampSize = (n: number) => Math.max(0, Math.min(0xffff, Math.trunc(n) || 0));

/**
 * A telnet client over a stream to the device (a tunnel stream, a TCP socket), shaped like an
 * ssh2 shell channel for the terminal bridge: `data` is the device's output with every telnet
 * command taken out, `write` sends keystrokes, `resize` reports the window, `pause`/`resume`
 * hold the device's output back while the browser catches up.
 *
 * It lets the device echo and suppress go-aheads, tells it the window (NAWS) and the terminal
 * type, and refuses every other option once (RFC 1143). A device that floods it with option
 * requests or an endless subnegotiation ends the session with an error.
 */
export class TelnetSession extends EventEmitter<TelnetEvents> {
  private readonly us = new Map<number, OptionState>();
  private readonly him = new Map<number, OptionState>();
  private readonly refused = new Set<string>();
  private state: ParseState = 'data';
  private verb = 0;
  private sb: number[] = [];
  private negotiations = 0;
  private afterCr = false;
  private replies: number[] = [];
  private cols: number;
  private rows: number;
  private readonly terminalType: string;
  private closed = false;
  private login: TelnetOptions['login'];
  private sentUsername = false;
  private sentPassword = false;
  private outputSeen = 0;
  private outputTail = '';
  private readonly started = Date.now();

  constructor(
    private readonly socket: Duplex,
    options: TelnetOptions,
  ) {
    super();
    this.cols = clampSize(options.cols);
    this.rows = clampSize(options.rows);
    this.terminalType =
      (options.terminalType ?? 'XTERM-256COLOR').replace(/[^\x21-\x7e]/g, '').slice(0, MAX_TERMINAL_TYPE) ||
      'XTERM-256COLOR';
    this.login = options.login;
    socket.on('data', (chunk: Buffer | string) =>
      this.receive(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)),
    );
    socket.on('end', () => {
      socket.end();
      this.finish();
    });
    socket.on('close', () => this.finish());
    socket.on('error', (error: Error) => {
      socket.destroy();
      this.finish(error);
    });
  }

  /** Sends what the user typed. */
  write(data: Buffer | string): boolean {
    if (this.closed) return false;
    return this.socket.write(encodeInput(typeof data === 'string' ? Buffer.from(data) : data));
  }

  /** Reports a new window size, when the device asked for NAWS. */
  resize(cols: number, rows: number): void {
    this.cols = clampSize(cols);
    this.rows = clampSize(rows);
    if (!this.closed && this.us.get(NAWS) === 'yes') this.socket.write(Buffer.from(this.naws()));
  }

  /** Ends the session; `close` follows when the stream has closed. */
  end(): void {
    if (!this.closed) this.socket.end();
  }

  pause(): this {
    this.socket.pause();
    return this;
  }

  resume(): this {
    this.socket.resume();
    return this;
  }

  isPaused(): boolean {
    return this.socket.isPaused();
  }

  private finish(error?: Error) {
    if (this.closed) return;
    this.closed = true;
    this.login = undefined;
    // An unheard 'error' would throw out of a stream callback and bring the server down.
    if (error && this.listenerCount('error') > 0) this.emit('error', error);
    this.emit('close');
  }

  private fail() {
    this.socket.destroy();
    this.finish(new Error(MALFORMED));
  }

  private receive(chunk: Buffer) {
    if (this.closed) return;
    // The output is never longer than what came in: commands are only taken out.
    const out = Buffer.allocUnsafe(chunk.length);
    let length = 0;
    for (const byte of chunk) {
      switch (this.state) {
        case 'data':
          if (byte === IAC) this.state = 'iac';
          else if (!(this.afterCr && byte === NUL)) out[length++] = byte; // RFC 854: CR NUL is a bare CR
          this.afterCr = byte === CR;
          break;
        case 'iac':
          if (byte === IAC) {
            out[length++] = IAC;
            this.afterCr = false;
            this.state = 'data';
          } else this.command(byte);
          break;
        case 'option':
          this.state = 'data';
          this.negotiate(this.verb, byte);
          break;
        case 'sb':
          if (byte === IAC) this.state = 'sb-iac';
          else this.sb.push(byte);
          break;
        case 'sb-iac':
          if (byte === IAC) {
            this.sb.push(IAC);
            this.state = 'sb';
          } else if (byte === SE) {
            this.state = 'data';
            this.subnegotiation(this.sb);
          } else this.command(byte); // RFC 855 leaves IAC <command> inside SB undefined: drop the SB
          break;
      }
      if (this.sb.length > MAX_SUBNEGOTIATION || this.negotiations > MAX_NEGOTIATIONS) return this.fail();
    }
    if (this.replies.length > 0) {
      this.socket.write(Buffer.from(this.replies));
      this.replies = [];
    }
    if (length === 0) return;
    const data = out.subarray(0, length);
    this.emit('data', data);
    this.autoLogin(data);
  }

  /** The byte after IAC, outside a subnegotiation. */
  private command(byte: number) {
    if (byte >= WILL && byte <= DONT) {
      this.verb = byte;
      this.state = 'option';
    } else if (byte === SB) {
      this.negotiations += 1;
      this.sb = [];
      this.state = 'sb';
    } else this.state = 'data'; // NOP, GA, DM and the others change nothing for a terminal
  }

  private reply(...bytes: number[]) {
    this.replies.push(...bytes);
  }

  // RFC 1143: answer a request only when it changes the option's state, and refuse an
  // unsupported option once, so that two sides that disagree never loop.
  private refuse(verb: number, option: number) {
    const key = `${verb}:${option}`;
    if (this.refused.has(key)) return;
    this.refused.add(key);
    this.reply(IAC, verb, option);
  }

  private negotiate(verb: number, option: number) {
    this.negotiations += 1;
    const local = verb === DO || verb === DONT;
    const states = local ? this.us : this.him;
    const current = states.get(option) ?? 'no';
    if (verb === DO || verb === WILL) {
      if (!(local ? OURS : THEIRS).has(option)) return this.refuse(local ? WONT : DONT, option);
      if (current === 'yes') return;
      states.set(option, 'yes');
      this.reply(IAC, local ? WILL : DO, option);
      if (local && option === NAWS) this.reply(...this.naws());
    } else if (current === 'yes') {
      states.set(option, 'no');
      this.reply(IAC, local ? WONT : DONT, option);
    }
  }

  private subnegotiation(bytes: number[]) {
    // RFC 1091: the device asks for the terminal type; the answer is IS and the name (printable
    // ASCII, so nothing to escape).
    if (bytes[0] === TTYPE && bytes[1] === TTYPE_SEND && this.us.get(TTYPE) === 'yes')
      this.reply(IAC, SB, TTYPE, TTYPE_IS, ...Buffer.from(this.terminalType, 'ascii'), IAC, SE);
  }

  /** RFC 1073: width and height as 16-bit big-endian numbers, a 0xFF among them doubled. */
  private naws(): number[] {
    const size = [this.cols >> 8, this.cols & 0xff, this.rows >> 8, this.rows & 0xff];
    return [IAC, SB, NAWS, ...escapeIac(Uint8Array.from(size)), IAC, SE];
  }

  private autoLogin(data: Buffer) {
    const login = this.login;
    if (!login) return;
    this.outputSeen += data.length;
    if (this.outputSeen > LOGIN_WINDOW_BYTES || Date.now() - this.started > LOGIN_WINDOW_MS) {
      this.login = undefined;
      return;
    }
    this.outputTail = (this.outputTail + data.toString('latin1')).slice(-64);
    if (!this.sentUsername && /login:\s*$/i.test(this.outputTail)) {
      this.sentUsername = true;
      this.outputTail = '';
      this.write(`${login.username}\r`);
    } else if (!this.sentPassword && /password:\s*$/i.test(this.outputTail)) {
      this.sentPassword = true;
      this.outputTail = '';
      this.write(`${login.password}\r`);
    }
    if (this.sentUsername && this.sentPassword) this.login = undefined;
  }
}
