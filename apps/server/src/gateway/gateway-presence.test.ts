import { connect as tcpConnect } from 'node:net';
import type { Worker } from 'node:worker_threads';
import type { DeviceIdentity as SimIdentity } from '@fleetgate/device-sim/identity';
import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  brokerUrl,
  buildGatewayApp,
  onlineAgent,
  rawConnect,
  registerDirect,
  testIdentity,
  waitFor,
} from '#test/devices';
import { devicesRepository } from '../modules/devices/devices.repository';
import type { FromBroker } from '../mqtt/broker-protocol';

let app: FastifyInstance;
/** Connections a test left open. */
const leftOpen: (() => void)[] = [];

/** Every report of the broker's thread, as the gateway heard it. */
const reports: FromBroker[] = [];

beforeAll(async () => {
  app = await buildGatewayApp();
  const received = app.broker!.received.bind(app.broker!);
  vi.spyOn(app.broker!, 'received').mockImplementation((message) => {
    reports.push(message);
    received(message);
  });
});
afterAll(async () => {
  for (const close of leftOpen) close();
  await app.close();
});

/** "Within a couple of seconds" of the broker seeing the connection end. */
const PROMPTLY = { timeout: 3000 };

const statusOf = async (serial: string) => (await devicesRepository.findBySerial(app.db, serial))?.status;

function waitStatus(serial: string, status: number, what: string) {
  return waitFor(async () => (await statusOf(serial)) === status, { ...PROMPTLY, what });
}

/** A device connection as a third-party agent makes it: no will unless given one. */
async function device(
  identity: SimIdentity,
  password: string,
  options: { conn?: string; will?: boolean } = {},
): Promise<MqttClient> {
  const conn = options.conn ?? 'c1';
  const outcome = await rawConnect(brokerUrl(app), {
    clientId: identity.serial,
    username: identity.serial,
    password,
    clean: true,
    ...(options.will
      ? {
          will: {
            topic: topics.status(identity.serial),
            payload: Buffer.from(JSON.stringify({ state: 'offline', conn })),
            qos: 1,
            retain: true,
          },
        }
      : {}),
  });
  expect(outcome.connected).toBe(true);
  leftOpen.push(() => outcome.client.end(true));
  return outcome.client;
}

/** The device says it is online (protocol §4.2: retained, right after connecting). */
async function sayOnline(client: MqttClient, serial: string, conn = 'c1') {
  await client.publishAsync(topics.status(serial), JSON.stringify({ state: 'online', conn }), {
    qos: 1,
    retain: true,
  });
}

/** Ends a connection the way a lost link does: the socket goes, no DISCONNECT. */
function destroy(client: MqttClient) {
  client.stream.destroy();
  client.end(true);
}

/** The broker's number for a serial's current connection. */
function brokerConnection(serial: string): number {
  const ready = reports.findLast((r) => r.t === 'ready' && r.session.serial === serial);
  if (ready?.t !== 'ready') throw new Error(`no broker connection for ${serial}`);
  return ready.conn;
}

/** A status message handed to the gateway by the broker; resolves once it has been handled. */
function brokerPublishes(serial: string, message: Record<string, string>): Promise<void> {
  return app.broker!.publish(topics.status(serial), JSON.stringify(message), { qos: 1, retain: true });
}

/** A device that has been through first contact: its secret, and no connection left. */
async function provisioned(identity: SimIdentity): Promise<string> {
  const agent = await onlineAgent(app, identity);
  await agent.stop();
  await waitStatus(identity.serial, DEVICE_STATUS.offline, 'provisioned device offline');
  return agent.secret!;
}

describe('presence follows the broker’s view of the connection (protocol §4.2)', () => {
  it('a first-contact session destroyed without a word leaves the device Offline', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const claim = await device(identity, identity.mac);
    await sayOnline(claim, identity.serial);
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online in first contact');

    destroy(claim);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after the claim session dropped');
  });

  it('a first-contact session whose will names another connection still ends Offline', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    // The will's conn is not the one its online status named: the gateway ignores that will.
    const claim = await device(identity, identity.mac, { conn: 'will-conn', will: true });
    await sayOnline(claim, identity.serial, 'other-conn');
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online in first contact');

    destroy(claim);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after the claim session dropped');
  });

  it('a first-contact session that ends with a clean DISCONNECT and no offline status ends Offline', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const claim = await device(identity, identity.mac);
    await sayOnline(claim, identity.serial);
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online in first contact');

    await claim.endAsync();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after DISCONNECT');
  });

  it('a device connected with its secret that drops without sending offline ends Offline', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const secret = await provisioned(identity);
    const client = await device(identity, secret);
    await sayOnline(client, identity.serial);
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online with the secret');

    destroy(client);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after the drop');
  });

  it('a device connected with its secret that sends DISCONNECT without a will ends Offline', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const secret = await provisioned(identity);
    const client = await device(identity, secret);
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online with the secret');

    await client.endAsync();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after DISCONNECT');
  });

  it('a connection that goes silent ends Offline when its keep-alive runs out', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    // A raw socket: it sends CONNECT (keep-alive 1 s) and the online status, then nothing.
    const socket = tcpConnect(app.broker!.port, '127.0.0.1');
    leftOpen.push(() => socket.destroy());
    let closed = false;
    socket
      .on('data', () => {})
      .on('close', () => {
        closed = true;
      });
    socket.write(connectPacket(identity.serial, identity.mac, 1));
    socket.write(
      publishPacket(topics.status(identity.serial), JSON.stringify({ state: 'online', conn: 'quiet' })),
    );
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online before going quiet');

    // The broker closes it 1.5 keep-alives after its last packet.
    await waitFor(() => closed, { ...PROMPTLY, what: 'the broker closing the connection' });
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after the keep-alive ran out');
  });

  it('a device that reconnects at once stays Online when its old connection’s end arrives late', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const secret = await provisioned(identity);
    const first = await device(identity, secret, { conn: 'old', will: true });
    await sayOnline(first, identity.serial, 'old');
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online on the first connection');
    const old = brokerConnection(identity.serial);

    // The same client id again: the broker takes the session over and ends the old
    // connection (its will goes out, since it never sent DISCONNECT).
    const second = await device(identity, secret, { conn: 'new', will: true });
    await sayOnline(second, identity.serial, 'new');
    await waitFor(
      async () => (await devicesRepository.findBySerial(app.db, identity.serial))?.sessionId === 'new',
      { what: 'the new connection’s status stored' },
    );

    // And the old connection's end once more, late: its disconnect and its will.
    app.broker!.received({ t: 'ended', conn: old, serial: identity.serial });
    await brokerPublishes(identity.serial, { state: 'offline', conn: 'old', reason: 'connection lost' });
    await app.gateway.drain();
    expect(await statusOf(identity.serial)).toBe(DEVICE_STATUS.online);
    expect(second.connected).toBe(true);

    destroy(second);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline once the new connection drops');
  });

  it('an online status handled after its connection ended does not bring the device back', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const secret = await provisioned(identity);
    const client = await device(identity, secret, { conn: 'gone', will: true });
    await sayOnline(client, identity.serial, 'gone');
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online');
    destroy(client);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline after the drop');

    // The device's retained 'online' reaches the gateway after the connection ended (its
    // handling was slower than the disconnect's).
    await brokerPublishes(identity.serial, { state: 'online', conn: 'gone' });
    await app.gateway.drain();
    expect(await statusOf(identity.serial)).toBe(DEVICE_STATUS.offline);
  });

  // Last: it stops the broker under every other test's devices.
  it('a broker thread that ends unexpectedly takes its devices Offline, starts again on its port, and they return', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const agent = await onlineAgent(app, identity);
    leftOpen.push(() => void agent.stop());
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online');
    const port = app.broker!.port;

    // As an error thrown inside Aedes would end it: the server's thread lives on.
    await (app.broker as unknown as { worker: Worker }).worker.terminate();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline with the broker thread gone');
    await waitFor(async () => (await statusOf(identity.serial)) === DEVICE_STATUS.online, {
      timeout: 15_000,
      what: 'online again once the broker thread is back',
    });
    expect(app.broker!.port).toBe(port);
    expect(app.gateway.mode).toBe('embedded');
  });
});

/** MQTT 3.1.1 packets for the raw-socket test (remaining length encoded as the spec says). */
function mqttPacket(header: number, body: Buffer): Buffer {
  const length: number[] = [];
  let n = body.length;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    length.push(byte);
  } while (n > 0);
  return Buffer.concat([Buffer.from([header, ...length]), body]);
}

function mqttString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

function connectPacket(serial: string, password: string, keepaliveSeconds: number): Buffer {
  const flags = 0x80 | 0x40 | 0x02; // username, password, clean session
  const variable = Buffer.concat([
    mqttString('MQTT'),
    Buffer.from([4, flags, keepaliveSeconds >> 8, keepaliveSeconds & 0xff]),
  ]);
  return mqttPacket(
    0x10,
    Buffer.concat([variable, mqttString(serial), mqttString(serial), mqttString(password)]),
  );
}

/** QoS 0, retained. */
function publishPacket(topic: string, payload: string): Buffer {
  return mqttPacket(0x31, Buffer.concat([mqttString(topic), Buffer.from(payload, 'utf8')]));
}
