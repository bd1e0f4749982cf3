import { connect, type Socket } from 'node:net';
import {
  startVncServer,
  VNC_BRUSH,
  VNC_CLOCK,
  VNC_DEFAULT_SIZE,
  VNC_MARKER,
  type VncServer,
  vncAuthResponse,
  vncClockArea,
} from '@fleetgate/device-sim/vnc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A tiny RFB viewer: exact-size reads over whatever chunks TCP delivers. */
class RfbClient {
  private buffered = Buffer.alloc(0);
  private wake = () => {};
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(server: VncServer): Promise<RfbClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.address.port, server.address.host, () => resolve(new RfbClient(socket)));
      socket.once('error', reject);
    });
  }

  async read(size: number, timeout = 5000): Promise<Buffer> {
    const deadline = Date.now() + timeout;
    while (this.buffered.length < size) {
      if (this.closed) throw new Error(`connection closed while waiting for ${size} bytes`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${size} bytes`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now() + 1);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const bytes = this.buffered.subarray(0, size);
    this.buffered = this.buffered.subarray(size);
    return bytes;
  }

  /** Whether the server closes the connection within `timeout` ms. */
  whenClosed(timeout = 5000): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeout);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  write(bytes: Buffer | string | number[]): void {
    this.socket.write(Array.isArray(bytes) ? Buffer.from(bytes) : bytes);
  }
}

type ServerInit = { width: number; height: number; format: Buffer; name: string };
type Rect = { x: number; y: number; width: number; height: number; encoding: number; data: Buffer };

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

/** RFC 6143 §7.1–7.3 from the viewer's side; a byte at a time so the server must reassemble it. */
async function handshake(
  client: RfbClient,
  { password, version = '003.008' }: { password?: string; version?: string } = {},
): Promise<ServerInit> {
  expect((await client.read(12)).toString('latin1')).toBe('RFB 003.008\n');
  for (const byte of Buffer.from(`RFB ${version}\n`)) {
    client.write([byte]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const wanted = password === undefined ? 1 : 2;
  if (version === '003.003') expect((await client.read(4)).readUInt32BE()).toBe(wanted);
  else {
    const count = (await client.read(1))[0]!;
    expect([...(await client.read(count))]).toEqual([wanted]);
    client.write([wanted]);
  }
  if (password !== undefined) {
    client.write(vncAuthResponse(password, await client.read(16)));
    expect((await client.read(4)).readUInt32BE()).toBe(0);
  } else if (version === '003.008') expect((await client.read(4)).readUInt32BE()).toBe(0);
  client.write([1]);
  const init = await client.read(24);
  const name = await client.read(init.readUInt32BE(20));
  return {
    width: init.readUInt16BE(0),
    height: init.readUInt16BE(2),
    format: init.subarray(4, 20),
    name: name.toString('utf8'),
  };
}

function requestUpdate(
  client: RfbClient,
  incremental: boolean,
  x = 0,
  y = 0,
  width = 0xffff,
  height = 0xffff,
) {
  const message = Buffer.alloc(10);
  message.writeUInt8(3, 0);
  message.writeUInt8(incremental ? 1 : 0, 1);
  message.writeUInt16BE(x, 2);
  message.writeUInt16BE(y, 4);
  message.writeUInt16BE(width, 6);
  message.writeUInt16BE(height, 8);
  client.write(message);
}

async function readUpdate(client: RfbClient, bytesPerPixel: number, timeout = 5000): Promise<Rect[]> {
  const header = await client.read(4, timeout);
  expect(header[0]).toBe(0);
  const rects: Rect[] = [];
  for (let i = 0; i < header.readUInt16BE(2); i++) {
    const r = await client.read(12);
    const [x, y, width, height] = [0, 2, 4, 6].map((at) => r.readUInt16BE(at)) as [
      number,
      number,
      number,
      number,
    ];
    const data = await client.read(width * height * bytesPerPixel);
    rects.push({ x, y, width, height, encoding: r.readInt32BE(8), data });
  }
  return rects;
}

function pixelAt(rects: Rect[], x: number, y: number, bytesPerPixel: number): Buffer | undefined {
  const r = rects.find((r) => x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height);
  const at = r && ((y - r.y) * r.width + (x - r.x)) * bytesPerPixel;
  return r && at !== undefined ? r.data.subarray(at, at + bytesPerPixel) : undefined;
}

const hasPixel = (rect: Rect, pixel: Buffer, bytesPerPixel: number) => {
  for (let at = 0; at < rect.data.length; at += bytesPerPixel)
    if (rect.data.subarray(at, at + bytesPerPixel).equals(pixel)) return true;
  return false;
};

/** A colour as the server's own format stores it: 32 bpp little-endian, shifts 16/8/0. */
const serverPixel = ([r, g, b]: readonly number[]) => Buffer.from([b!, g!, r!, 0]);
const markerCentre = { x: VNC_MARKER.x + VNC_MARKER.size / 2, y: VNC_MARKER.y + VNC_MARKER.size / 2 };

function setPixelFormat(client: RfbClient, format: number[]) {
  client.write([0, 0, 0, 0, ...format]);
}

describe('simulated device VNC server', () => {
  let open: VncServer;
  let locked: VncServer;
  beforeAll(async () => {
    open = await startVncServer({ name: 'RUTX11-0001' });
    locked = await startVncServer({ name: 'RUT956-0002', password: 'admin01', width: 320, height: 200 });
  });
  afterAll(async () => {
    await open?.close();
    await locked?.close();
  });

  it('computes the VNC Authentication response with DES under the bit-mirrored password', () => {
    // Each byte mirrors to the classic DES test key 01 23 45 67 89 AB CD EF, whose encryption
    // of "Now is t" is 3FA40E8A984D4815 (FIPS 81 example).
    const password = Buffer.from('80c4a2e691d5b3f7', 'hex').toString('latin1');
    const response = vncAuthResponse(password, Buffer.from('Now is tNow is t'));
    expect(response.toString('hex')).toBe('3fa40e8a984d4815'.repeat(2));
  });

  it('serves the marker and the changing clock to a viewer without a password', async () => {
    const client = await RfbClient.open(open);
    const init = await handshake(client);
    expect(init).toMatchObject({ ...VNC_DEFAULT_SIZE, name: 'RUTX11-0001' });
    expect([...init.format]).toEqual([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]);

    requestUpdate(client, false);
    const full = await readUpdate(client, 4);
    expect(full.every((r) => r.encoding === 0)).toBe(true);
    expect(pixelAt(full, markerCentre.x, markerCentre.y, 4)).toEqual(serverPixel(VNC_MARKER.rgb));
    expect(pixelAt(full, VNC_DEFAULT_SIZE.width - 1, 0, 4)).toBeDefined();

    // The clock moves each second, so an incremental request is answered within about one.
    const startedAt = Date.now();
    requestUpdate(client, true);
    const changed = await readUpdate(client, 4, 2500);
    expect(Date.now() - startedAt).toBeLessThan(2500);
    const clock = vncClockArea(VNC_DEFAULT_SIZE.width, VNC_DEFAULT_SIZE.height);
    expect(changed.length).toBeGreaterThan(0);
    for (const r of changed) expect(r.y).toBeGreaterThanOrEqual(clock.y);
    expect(changed.some((r) => hasPixel(r, serverPixel(VNC_CLOCK.rgb), 4))).toBe(true);
    client.socket.destroy();
  });

  it('paints a square where the left button is pressed', async () => {
    const client = await RfbClient.open(open);
    await handshake(client);
    requestUpdate(client, false);
    await readUpdate(client, 4);
    client.write([5, 1, 0, 200, 0, 150]);
    const deadline = Date.now() + 3000;
    let painted: Buffer | undefined;
    while (!painted && Date.now() < deadline) {
      requestUpdate(client, true);
      painted = pixelAt(await readUpdate(client, 4, deadline - Date.now()), 200, 150, 4);
    }
    expect(painted).toEqual(serverPixel(VNC_BRUSH.rgb));
    client.socket.destroy();
  });

  it('answers 3.3 and 3.7 viewers with their own security handshake', async () => {
    for (const version of ['003.003', '003.007']) {
      const client = await RfbClient.open(open);
      expect((await handshake(client, { version })).name).toBe('RUTX11-0001');
      client.socket.destroy();
    }
  });

  it('accepts the right VNC password', async () => {
    const client = await RfbClient.open(locked);
    expect(await handshake(client, { password: 'admin01' })).toMatchObject({
      width: 320,
      height: 200,
      name: 'RUT956-0002',
    });
    requestUpdate(client, false, 0, 0, 64, 64);
    expect(pixelAt(await readUpdate(client, 4), 10, 10, 4)).toEqual(serverPixel(VNC_MARKER.rgb));
    client.socket.destroy();
  });

  it('refuses a wrong VNC password with a reason', async () => {
    const client = await RfbClient.open(locked);
    await client.read(12);
    client.write('RFB 003.008\n');
    expect([...(await client.read(2))]).toEqual([1, 2]);
    client.write([2]);
    client.write(vncAuthResponse('wrong', await client.read(16)));
    expect((await client.read(4)).readUInt32BE()).toBe(1);
    const reason = await client.read((await client.read(4)).readUInt32BE());
    expect(reason.toString()).toBe('Authentication failed');
    expect(await client.whenClosed()).toBe(true);
  });

  it('sends pixels in the format the viewer sets', async () => {
    const client = await RfbClient.open(open);
    await handshake(client);
    const [r, g, b] = VNC_MARKER.rgb;
    // RGB565: 16 bpp, depth 16, true colour, max 31/63/31, shifts 11/5/0.
    const rgb565 = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
    for (const bigEndian of [0, 1]) {
      setPixelFormat(client, [16, 16, bigEndian, 1, 0, 31, 0, 63, 0, 31, 11, 5, 0, 0, 0, 0]);
      requestUpdate(client, false, 0, 0, 64, 64);
      const pixel = pixelAt(await readUpdate(client, 2), markerCentre.x, markerCentre.y, 2)!;
      expect(bigEndian ? pixel.readUInt16BE() : pixel.readUInt16LE()).toBe(rgb565);
    }
    // noVNC's own request: 32 bpp little-endian with red in the lowest byte.
    setPixelFormat(client, [32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 0, 8, 16, 0, 0, 0]);
    requestUpdate(client, false, 0, 0, 64, 64);
    expect([...pixelAt(await readUpdate(client, 4), 1, 1, 4)!]).toEqual([r, g, b, 0]);
    client.socket.destroy();
  });

  it('drops hostile connections while a well-behaved viewer still gets pixels', async () => {
    const viewer = await RfbClient.open(open);
    await viewer.read(12);

    const garbage = await RfbClient.open(open);
    garbage.write('GARBAGE\nGARBAGE\nGARBAGE\n');
    const wrongVersion = await RfbClient.open(open);
    wrongVersion.write('RFB 004.001\n');
    const unknownMessage = await RfbClient.open(open);
    await handshake(unknownMessage);
    unknownMessage.write([99, 0, 0, 0]);
    const hugeCutText = await RfbClient.open(open);
    await handshake(hugeCutText);
    hugeCutText.write(Buffer.concat([Buffer.from([6, 0, 0, 0]), u32(0xffff_fff0)]));
    for (const client of [garbage, wrongVersion, unknownMessage, hugeCutText])
      expect(await client.whenClosed()).toBe(true);

    viewer.write('RFB 003.008\n');
    expect([...(await viewer.read(2))]).toEqual([1, 1]);
    viewer.write([1]);
    expect((await viewer.read(4)).readUInt32BE()).toBe(0);
    viewer.write([1]);
    await viewer.read((await viewer.read(24)).readUInt32BE(20));
    // A modest cut text is read and ignored; the connection carries on.
    viewer.write(Buffer.concat([Buffer.from([6, 0, 0, 0]), u32(5), Buffer.from('hello')]));
    requestUpdate(viewer, false);
    expect(pixelAt(await readUpdate(viewer, 4), 5, 5, 4)).toEqual(serverPixel(VNC_MARKER.rgb));
    expect(viewer.closed).toBe(false);
    viewer.socket.destroy();
  });

  it('drops live viewers when closed', async () => {
    const server = await startVncServer({ name: 'closing' });
    const client = await RfbClient.open(server);
    await handshake(client);
    await server.close();
    expect(await client.whenClosed()).toBe(true);
  });
});
