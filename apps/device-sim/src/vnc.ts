import { createCipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';

/** A rectangle of the framebuffer, in pixels. */
export type VncRect = { x: number; y: number; width: number; height: number };
/** A colour as red, green, blue, 0–255 each. */
export type Rgb = readonly [number, number, number];

export type VncServerOptions = {
  /** The desktop name sent in ServerInit. */
  name: string;
  /** When set, viewers must pass VNC Authentication with it; otherwise security type None. */
  password?: string;
  width?: number;
  height?: number;
};

export type VncServer = { address: { host: string; port: number }; close(): Promise<void> };

/*
 * The simulated desktop, one per server and shared by all its viewers (tests, and the noVNC
 * pixel check in the browser, rely on this layout):
 *   - VNC_BACKGROUND (#0f172a) everywhere else;
 *   - VNC_MARKER: a solid #2563eb square at the top-left (0,0)-(63,63) that never changes;
 *   - VNC_CLOCK: the bottom 32 rows (`vncClockArea`) are a #1e293b track of 32-pixel cells; one
 *     cell is lit #22c55e, cell 0 when the server starts, then one cell right each second,
 *     wrapping, so an incremental update request is always answered within a second;
 *   - VNC_BRUSH: while button 1 is down, each pointer event paints a #f97316 8x8 square centred
 *     on the pointer (it stays until the server closes).
 * Key events change nothing.
 */
export const VNC_DEFAULT_SIZE = { width: 640, height: 400 } as const;
export const VNC_BACKGROUND: Rgb = [0x0f, 0x17, 0x2a];
export const VNC_MARKER = { x: 0, y: 0, size: 64, rgb: [0x25, 0x63, 0xeb] as Rgb } as const;
export const VNC_CLOCK = {
  height: 32,
  cell: 32,
  rgb: [0x22, 0xc5, 0x5e] as Rgb,
  track: [0x1e, 0x29, 0x3b] as Rgb,
} as const;
export const VNC_BRUSH = { size: 8, rgb: [0xf9, 0x73, 0x16] as Rgb } as const;

/** The area VNC_CLOCK occupies on a screen of the given size. */
export const vncClockArea = (width: number, height: number): VncRect => ({
  x: 0,
  y: Math.max(0, height - VNC_CLOCK.height),
  width,
  height: Math.min(height, VNC_CLOCK.height),
});

const VERSION = 'RFB 003.008\n';
const SECURITY = { none: 1, vncAuth: 2 } as const;
const CUT_TEXT_LIMIT = 1 << 20;
/** A client that has not finished the handshake by then is dropped, so idle sockets cannot pile up. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** Past this many separate changed rectangles, a viewer is sent their bounding box instead. */
const MAX_DIRTY = 64;
/** RFC 6143 §7.4: 32 bpp, depth 24, little-endian, true colour, max 255, shifts 16/8/0. */
const SERVER_PIXEL_FORMAT = Buffer.from([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]);

const intersect = (a: VncRect, b: VncRect): VncRect | undefined => {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
};

const union = (a: VncRect, b: VncRect): VncRect => {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  const right = Math.max(a.x + a.width, b.x + b.width);
  const bottom = Math.max(a.y + a.height, b.y + b.height);
  return { x, y, width: right - x, height: bottom - y };
};

const contains = (outer: VncRect, inner: VncRect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

/** What is left of `a` once `hole` (a part of it) is taken out: up to four bands. */
function subtract(a: VncRect, hole: VncRect): VncRect[] {
  const rest: VncRect[] = [];
  const holeBottom = hole.y + hole.height;
  const holeRight = hole.x + hole.width;
  if (hole.y > a.y) rest.push({ x: a.x, y: a.y, width: a.width, height: hole.y - a.y });
  if (holeBottom < a.y + a.height)
    rest.push({ x: a.x, y: holeBottom, width: a.width, height: a.y + a.height - holeBottom });
  if (hole.x > a.x) rest.push({ x: a.x, y: hole.y, width: hole.x - a.x, height: hole.height });
  if (holeRight < a.x + a.width)
    rest.push({ x: holeRight, y: hole.y, width: a.x + a.width - holeRight, height: hole.height });
  return rest;
}

/** The desktop's pixels as 0xRRGGBB; every change is reported to the watching viewers. */
class Framebuffer {
  readonly pixels: Uint32Array;
  readonly bounds: VncRect;
  private readonly watchers = new Set<(changed: VncRect) => void>();

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint32Array(width * height);
    this.bounds = { x: 0, y: 0, width, height };
  }

  fill(rect: VncRect, [r, g, b]: Rgb): void {
    const area = intersect(rect, this.bounds);
    if (!area) return;
    const value = (r << 16) | (g << 8) | b;
    for (let y = area.y; y < area.y + area.height; y++) {
      const row = y * this.width;
      this.pixels.fill(value, row + area.x, row + area.x + area.width);
    }
    for (const watcher of this.watchers) watcher(area);
  }

  watch(watcher: (changed: VncRect) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}

function drawClock(fb: Framebuffer, seconds: number): void {
  const area = vncClockArea(fb.width, fb.height);
  const cells = Math.max(1, Math.floor(fb.width / VNC_CLOCK.cell));
  const cell = (n: number): VncRect => ({ ...area, x: (n % cells) * VNC_CLOCK.cell, width: VNC_CLOCK.cell });
  if (seconds > 0) fb.fill(cell(seconds - 1), VNC_CLOCK.track);
  fb.fill(cell(seconds), VNC_CLOCK.rgb);
}

/**
 * A viewer's pixel format (RFC 6143 §7.4) as lookup tables: each channel's 8-bit value, scaled
 * to the channel's max and shifted into place, so a pixel is three lookups and an OR.
 */
type PixelEncoder = {
  bytes: 1 | 2 | 4;
  bigEndian: boolean;
  red: Uint32Array;
  green: Uint32Array;
  blue: Uint32Array;
};

/** Only true-colour formats of 8, 16 or 32 bits per pixel; a colour map is refused. */
function pixelEncoder(format: Buffer): PixelEncoder | undefined {
  const bitsPerPixel = format[0]!;
  if (format[3] === 0 || (bitsPerPixel !== 8 && bitsPerPixel !== 16 && bitsPerPixel !== 32)) return undefined;
  const table = (max: number, shift: number) => {
    const values = new Uint32Array(256);
    for (let v = 0; v < 256; v++) values[v] = (Math.round((v * max) / 255) << shift) >>> 0;
    return values;
  };
  return {
    bytes: (bitsPerPixel / 8) as 1 | 2 | 4,
    bigEndian: format[2] !== 0,
    red: table(format.readUInt16BE(4), format[10]! & 31),
    green: table(format.readUInt16BE(6), format[11]! & 31),
    blue: table(format.readUInt16BE(8), format[12]! & 31),
  };
}

/** A FramebufferUpdate (RFC 6143 §7.6.1) of the given rectangles, all in Raw encoding (§7.7.1). */
function encodeUpdate(fb: Framebuffer, rects: VncRect[], f: PixelEncoder): Buffer {
  const size = rects.reduce((sum, r) => sum + 12 + r.width * r.height * f.bytes, 4);
  const out = Buffer.allocUnsafe(size);
  out.writeUInt16BE(0, 0); // message type 0, padding
  out.writeUInt16BE(rects.length, 2);
  let at = 4;
  for (const r of rects) {
    out.writeUInt16BE(r.x, at);
    out.writeUInt16BE(r.y, at + 2);
    out.writeUInt16BE(r.width, at + 4);
    out.writeUInt16BE(r.height, at + 6);
    out.writeInt32BE(0, at + 8);
    at += 12;
    for (let y = r.y; y < r.y + r.height; y++) {
      for (let x = r.x; x < r.x + r.width; x++) {
        const rgb = fb.pixels[y * fb.width + x]!;
        const pixel = f.red[rgb >>> 16]! | f.green[(rgb >>> 8) & 0xff]! | f.blue[rgb & 0xff]!;
        const value = f.bytes === 4 ? pixel >>> 0 : pixel & ((1 << (8 * f.bytes)) - 1);
        if (f.bigEndian) out.writeUIntBE(value, at, f.bytes);
        else out.writeUIntLE(value, at, f.bytes);
        at += f.bytes;
      }
    }
  }
  return out;
}

/**
 * The response to a VNC Authentication challenge (RFC 6143 §7.2.2): the challenge encrypted
 * with DES-ECB, keyed by the password's first 8 bytes (zero-padded) with each byte's bits
 * mirrored, as every VNC implementation does. Bytes are taken as Latin-1, as noVNC does.
 */
export function vncAuthResponse(password: string, challenge: Buffer): Buffer {
  const key = Buffer.alloc(8);
  Buffer.from(password, 'latin1').copy(key, 0, 0, 8);
  for (let i = 0; i < 8; i++) {
    let mirrored = 0;
    for (let bit = 0; bit < 8; bit++) mirrored |= ((key[i]! >> bit) & 1) << (7 - bit);
    key[i] = mirrored;
  }
  // OpenSSL 3 keeps single DES in its legacy provider only, but triple DES (EDE) with three
  // equal keys is single DES: E_k(D_k(E_k(x))) = E_k(x).
  const cipher = createCipheriv('des-ede3-ecb', Buffer.concat([key, key, key]), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(challenge), cipher.final()]);
}

/** Reads exact byte counts from a socket, however TCP splits or joins the client's messages. */
class SocketReader {
  private buffered: Buffer = Buffer.alloc(0);
  private closed = false;
  private want: { size: number; resolve(bytes: Buffer): void; reject(error: Error): void } | undefined;

  constructor(socket: Socket, limit: number) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length > 0 ? Buffer.concat([this.buffered, chunk]) : chunk;
      // A client that sends far more than it is served is cut off rather than buffered forever.
      if (this.buffered.length > limit) socket.destroy();
      else this.settle();
    });
    socket.on('close', () => {
      this.closed = true;
      this.settle();
    });
  }

  read(size: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.want = { size, resolve, reject };
      this.settle();
    });
  }

  private settle(): void {
    const want = this.want;
    if (!want) return;
    if (this.buffered.length >= want.size) {
      this.want = undefined;
      const bytes = this.buffered.subarray(0, want.size);
      this.buffered = this.buffered.subarray(want.size);
      want.resolve(bytes);
    } else if (this.closed) {
      this.want = undefined;
      want.reject(new Error('connection closed'));
    }
  }
}

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

/** One viewer's connection: the handshake (RFC 6143 §7.1–7.3), then its messages (§7.5). */
class RfbSession {
  private readonly reader: SocketReader;
  private encoder = pixelEncoder(SERVER_PIXEL_FORMAT)!;
  /** Set by SetEncodings; only Raw is ever sent, which every client must accept (§7.7.1). */
  encodings: number[] = [];
  /** What changed since this viewer's last update; at first it has seen nothing. */
  private dirty: VncRect[];
  private request: { area: VncRect | undefined; force: boolean } | undefined;
  private waitingForDrain = false;
  private pumpScheduled = false;

  constructor(
    private readonly socket: Socket,
    private readonly fb: Framebuffer,
    private readonly password: string | undefined,
    private readonly name: string,
  ) {
    this.reader = new SocketReader(socket, CUT_TEXT_LIMIT + 64 * 1024);
    this.dirty = [fb.bounds];
  }

  async run(): Promise<void> {
    const { socket } = this;
    socket.setNoDelay(true);
    socket.on('error', () => {});
    const timer = setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS);
    let unwatch = () => {};
    socket.once('close', () => {
      clearTimeout(timer);
      unwatch();
    });
    try {
      await this.handshake();
      clearTimeout(timer);
      unwatch = this.fb.watch((changed) => {
        this.damage(changed);
        this.schedulePump();
      });
      for (;;) await this.message();
    } catch {
      // A broken or hostile client loses its own connection only; a refusal already ended it.
      if (!socket.writableEnded) socket.destroy();
    }
  }

  private async handshake(): Promise<void> {
    const { socket, reader } = this;
    socket.write(VERSION);
    const minor = /^RFB 003\.00([378])\n$/.exec((await reader.read(12)).toString('latin1'))?.[1];
    if (!minor) throw new Error('unsupported protocol version');
    const version = Number(minor);
    const type = this.password === undefined ? SECURITY.none : SECURITY.vncAuth;
    // §7.1.2: 3.3 has the server decide the type; 3.7 and later offer a list and let the client pick.
    if (version === 3) socket.write(u32(type));
    else {
      socket.write(Buffer.from([1, type]));
      if ((await reader.read(1))[0] !== type) this.refuse(version, 'Security type not offered');
    }
    if (type === SECURITY.vncAuth) {
      const challenge = randomBytes(16);
      socket.write(challenge);
      const response = await reader.read(16);
      if (!timingSafeEqual(response, vncAuthResponse(this.password!, challenge)))
        this.refuse(version, 'Authentication failed');
      socket.write(u32(0));
    } else if (version === 8) socket.write(u32(0)); // §7.1.3: only 3.8 sends SecurityResult after None.
    await reader.read(1); // ClientInit's shared flag: every viewer shares the one desktop anyway.
    const name = Buffer.from(this.name, 'utf8');
    const init = Buffer.alloc(4);
    init.writeUInt16BE(this.fb.width, 0);
    init.writeUInt16BE(this.fb.height, 2);
    socket.write(Buffer.concat([init, SERVER_PIXEL_FORMAT, u32(name.length), name]));
  }

  /** SecurityResult failed (§7.1.3), with the reason from 3.8 on, then a graceful close. */
  private refuse(version: number, reason: string): never {
    const text = Buffer.from(reason, 'latin1');
    this.socket.end(version === 8 ? Buffer.concat([u32(1), u32(text.length), text]) : u32(1));
    throw new Error(reason);
  }

  private async message(): Promise<void> {
    const { reader } = this;
    const type = (await reader.read(1))[0];
    switch (type) {
      case 0: {
        // SetPixelFormat (§7.5.1): 3 bytes of padding, then the format.
        const encoder = pixelEncoder((await reader.read(19)).subarray(3));
        if (!encoder) throw new Error('unsupported pixel format');
        this.encoder = encoder;
        return;
      }
      case 2: {
        // SetEncodings (§7.5.2); DesktopSize (-223) needs nothing: the desktop never resizes.
        const count = (await reader.read(3)).readUInt16BE(1);
        const list = await reader.read(count * 4);
        this.encodings = Array.from({ length: count }, (_, i) => list.readInt32BE(i * 4));
        return;
      }
      case 3: {
        // FramebufferUpdateRequest (§7.5.3): incremental flag, then x, y, width, height.
        const b = await reader.read(9);
        const u16 = (offset: number) => b.readUInt16BE(offset);
        this.requestUpdate(b[0] !== 0, { x: u16(1), y: u16(3), width: u16(5), height: u16(7) });
        return;
      }
      case 4:
        await reader.read(7); // KeyEvent (§7.5.4): the simulated desktop takes no typing.
        return;
      case 5: {
        const b = await reader.read(5);
        const half = VNC_BRUSH.size / 2;
        // PointerEvent (§7.5.5): bit 0 of the button mask is the left button.
        if (b[0]! & 1) {
          const at = { x: b.readUInt16BE(1) - half, y: b.readUInt16BE(3) - half };
          this.fb.fill({ ...at, width: VNC_BRUSH.size, height: VNC_BRUSH.size }, VNC_BRUSH.rgb);
        }
        return;
      }
      case 6: {
        // ClientCutText (§7.5.6): the text is read and dropped; a huge one ends the connection.
        const length = (await reader.read(7)).readUInt32BE(3);
        if (length > CUT_TEXT_LIMIT) throw new Error('cut text too long');
        await reader.read(length);
        return;
      }
      default:
        throw new Error(`unknown message type ${type}`);
    }
  }

  /** FramebufferUpdateRequest (§7.5.3): requests pending at once are merged into one. */
  private requestUpdate(incremental: boolean, rect: VncRect): void {
    const area = intersect(rect, this.fb.bounds);
    if (!incremental && area) this.damage(area);
    const pending = this.request;
    this.request = {
      area: pending?.area && area ? union(pending.area, area) : (area ?? pending?.area),
      force: (pending?.force ?? false) || !incremental,
    };
    this.schedulePump();
  }

  private damage(changed: VncRect): void {
    if (this.dirty.some((d) => contains(d, changed))) return;
    this.dirty = this.dirty.filter((d) => !contains(changed, d));
    this.dirty.push(changed);
    if (this.dirty.length > MAX_DIRTY) this.dirty = [this.dirty.reduce(union)];
  }

  /** Deferred to a microtask so that changes made together go out in one update. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Sends what changed inside the requested area. An incremental request with nothing new waits
   * for the next change; a non-incremental one is always answered, if need be with no rectangles.
   * Nothing is sent while the socket's buffer is still draining the previous update.
   */
  private pump(): void {
    const { request, socket } = this;
    if (!request || this.waitingForDrain || socket.destroyed || socket.writableEnded) return;
    const send: VncRect[] = [];
    const keep: VncRect[] = [];
    for (const d of this.dirty) {
      const hit = request.area && intersect(d, request.area);
      if (hit) send.push(hit);
      keep.push(...(hit ? subtract(d, hit) : [d]));
    }
    if (send.length === 0 && !request.force) return;
    this.dirty = keep;
    this.request = undefined;
    if (!socket.write(encodeUpdate(this.fb, send, this.encoder))) {
      this.waitingForDrain = true;
      socket.once('drain', () => {
        this.waitingForDrain = false;
        this.pump();
      });
    }
  }
}

/**
 * Starts a simulated device's VNC server: RFB 3.8 (RFC 6143, also answering 3.3 and 3.7
 * viewers) on a loopback port, showing the desktop described above. `close()` drops every
 * viewer and resolves once the listener is closed.
 */
export async function startVncServer(options: VncServerOptions): Promise<VncServer> {
  const width = options.width ?? VNC_DEFAULT_SIZE.width;
  const height = options.height ?? VNC_DEFAULT_SIZE.height;
  for (const size of [width, height])
    if (!Number.isInteger(size) || size < 1 || size > 0xffff) throw new RangeError(`bad screen size ${size}`);
  const fb = new Framebuffer(width, height);
  fb.fill(fb.bounds, VNC_BACKGROUND);
  const { x, y, size } = VNC_MARKER;
  fb.fill({ x, y, width: size, height: size }, VNC_MARKER.rgb);
  fb.fill(vncClockArea(width, height), VNC_CLOCK.track);
  let seconds = 0;
  drawClock(fb, seconds);
  const clock = setInterval(() => drawClock(fb, ++seconds), 1000);
  clock.unref();

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    void new RfbSession(socket, fb, options.password, options.name).run();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: { host: '127.0.0.1', port },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(clock);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
