import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { SIMULATED_DESKTOP_HOST } from '@fleetgate/device-sim/services';
import { VNC_MARKER } from '@fleetgate/device-sim/vnc';
import { CONNECT_DESKTOP_PATH, DESKTOP_CLOSE } from '@fleetgate/shared/devices/tunnel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { openSocket } from '#test/sockets';

/**
 * The console's desktop end to end: RFB over the desktop WebSocket, through the device's
 * tunnel, to the simulator's VNC server on a LAN computer, as noVNC speaks it; and what ends a
 * desktop session in words.
 */

let app: FastifyInstance;
let base: string;
let acme: TestClient;
let beta: TestClient;
let agent: DeviceAgent;
let deviceId: number;

const desktop = (client: TestClient | undefined, query: string, origin = base) =>
  openSocket(`${base}${CONNECT_DESKTOP_PATH}?${query}`, { client, origin });

/** A viewer's side of RFB 3.8 over the socket: bytes read exactly as they come. */
function viewer(ws: WebSocket) {
  let buffered = Buffer.alloc(0);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
  });
  const read = async (count: number) => {
    await waitFor(() => buffered.length >= count, { what: `${count} bytes` });
    const out = buffered.subarray(0, count);
    buffered = buffered.subarray(count);
    return out;
  };
  return { read, closed, send: (bytes: Buffer) => ws.send(bytes) };
}

async function opened(query: string) {
  const result = await desktop(acme, query);
  if (!('ws' in result)) throw new Error(`refused with ${result.status}`);
  return result.ws;
}

beforeAll(async () => {
  app = await buildGatewayApp({ listen: true });
  base = `http://127.0.0.1:${httpPort(app)}`;
  const tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acme, beta] = await Promise.all([signedIn(app, 'admin@acme.test'), signedIn(app, 'admin@beta.test')]);
  const identity = testIdentity('RUTX11');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true });
});
afterAll(async () => {
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
});

describe('the desktop through a device tunnel (VNC)', () => {
  it("draws a LAN computer's framebuffer: handshake, ServerInit and the marker pixel, recorded with bytes", async () => {
    const made = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Office PC',
      protocol: 'vnc',
      host: SIMULATED_DESKTOP_HOST,
    });
    expect(made.json().data).toMatchObject({ port: 5900 });
    const entry = made.json().data.id as number;
    const ws = await opened(`entry_id=${entry}`);
    const rfb = viewer(ws);
    expect((await rfb.read(12)).toString()).toBe('RFB 003.008\n');
    rfb.send(Buffer.from('RFB 003.008\n'));
    const count = (await rfb.read(1))[0]!;
    expect([...(await rfb.read(count))]).toContain(1);
    rfb.send(Buffer.from([1]));
    expect((await rfb.read(4)).readUInt32BE(0)).toBe(0);
    rfb.send(Buffer.from([1])); // shared
    const init = await rfb.read(24);
    const [width, height] = [init.readUInt16BE(0), init.readUInt16BE(2)];
    const name = (await rfb.read(init.readUInt32BE(20))).toString();
    expect(name).toContain('desktop');
    // A full update of the marker's square: 32-bit pixels, blue-green-red-x little endian.
    const request = Buffer.alloc(10);
    request.writeUInt8(3, 0);
    request.writeUInt16BE(0, 2);
    request.writeUInt16BE(0, 4);
    request.writeUInt16BE(width, 6);
    request.writeUInt16BE(height, 8);
    rfb.send(request);
    const header = await rfb.read(4);
    expect(header[0]).toBe(0);
    const rects = header.readUInt16BE(2);
    let marker: number[] | undefined;
    for (let i = 0; i < rects; i++) {
      const rect = await rfb.read(12);
      const [x, y, w, h] = [
        rect.readUInt16BE(0),
        rect.readUInt16BE(2),
        rect.readUInt16BE(4),
        rect.readUInt16BE(6),
      ];
      expect(rect.readInt32BE(8)).toBe(0);
      const pixels = await rfb.read(w * h * 4);
      if (x === 0 && y === 0) marker = [pixels[2]!, pixels[1]!, pixels[0]!];
    }
    expect(marker).toEqual([...VNC_MARKER.rgb]);
    ws.close();
    const [session] = await waitFor(async () => {
      const rows = (await acme.get(`/api/remote/sessions?entry_id=${entry}`)).json().data as {
        ended_at: string | null;
        protocol: string;
        bytes_from_device: number;
        end_reason: string;
      }[];
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(session).toMatchObject({ protocol: 'vnc', end_reason: 'The user closed the desktop' });
    expect(session!.bytes_from_device).toBeGreaterThan(width * height * 4);
  });

  it('ends, in words, a session whose device answers with anything but RFB, and no other', async () => {
    // A "desktop" that is really the device's SSH port: its banner is not an RFB greeting.
    const wrong = await opened(`device_id=${deviceId}&protocol=vnc&port=22`);
    const good = viewer(await opened(`device_id=${deviceId}&protocol=vnc`));
    expect(await viewer(wrong).closed).toEqual({
      code: DESKTOP_CLOSE.failed,
      reason: 'The device did not answer as a VNC server',
    });
    expect((await good.read(12)).toString()).toBe('RFB 003.008\n');
  });

  it('refuses other protocols, other tenants, foreign origins and callers without a session', async () => {
    const rdp = await acme.post('/api/devices/remote-access', {
      device_id: deviceId,
      name: 'Server',
      protocol: 'rdp',
      host: '192.168.1.20',
    });
    expect(await desktop(acme, `entry_id=${rdp.json().data.id}`)).toEqual({ status: 400 });
    expect(await desktop(acme, `device_id=${deviceId}&protocol=ssh`)).toEqual({ status: 400 });
    expect(await desktop(beta, `device_id=${deviceId}&protocol=vnc`)).toEqual({ status: 404 });
    expect(await desktop(acme, `device_id=${deviceId}`, 'https://evil.example')).toEqual({ status: 403 });
    expect(await desktop(undefined, `device_id=${deviceId}`)).toEqual({ status: 401 });
  });
});
