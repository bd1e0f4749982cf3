import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import type { ServiceDevice } from '@fleetgate/device-sim/services';
import type { ShellDevice } from '@fleetgate/device-sim/shell';
import { startTelnetServer, type TelnetServer } from '@fleetgate/device-sim/telnet';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TelnetOptions, TelnetSession } from './telnet';

const IAC = 255;
const DONT = 254;
const DO = 253;
const WONT = 252;
const WILL = 251;
const SB = 250;
const SE = 240;
const ECHO = 1;
const TTYPE = 24;
const NAWS = 31;

const MALFORMED = 'The device sent a malformed telnet negotiation';
const PROMPT = 'root@RUTX11-0042:~# ';

const shellDevice: ShellDevice = {
  serial: '1100000042',
  mac: '00:1E:42:00:00:42',
  model: 'RUTX11',
  firmware: 'RUTX_R_00.07.14.2',
  hostname: 'RUTX11-0042',
  uptimeSeconds: 3600,
  state: undefined,
};
const device: ServiceDevice = {
  serial: shellDevice.serial,
  password: 'admin-123',
  shellDevice: () => shellDevice,
};

const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });
const count = (text: string, part: string) => text.split(part).length - 1;

const sockets: Socket[] = [];
const servers: Server[] = [];

async function dial(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** A client that speaks raw bytes and ignores what it is sent. */
async function rawClient(port: number) {
  const socket = await dial(port);
  let closed = false;
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  // Reading what arrives lets the socket see the device's end of the connection.
  socket.resume();
  return { socket, closed: () => closed };
}

/** A driver on a TCP connection, with everything it emitted. */
async function session(port: number, options: Partial<TelnetOptions> = {}) {
  const telnet = new TelnetSession(await dial(port), { cols: 80, rows: 24, ...options });
  const chunks: Buffer[] = [];
  const errors: Error[] = [];
  let closed = false;
  telnet.on('data', (chunk) => chunks.push(Buffer.from(chunk)));
  telnet.on('error', (error) => errors.push(error));
  telnet.on('close', () => {
    closed = true;
  });
  return {
    telnet,
    errors,
    output: () => Buffer.concat(chunks),
    text: () => Buffer.concat(chunks).toString('utf8'),
    closed: () => closed,
  };
}

/** A device played by the test: what each connection sent it, and a hand on its socket. */
async function fakeDevice(onConnection: (socket: Socket) => void) {
  const received: Buffer[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => {});
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received: () => Buffer.concat(received) };
}

const contains = (haystack: Buffer, needle: number[]) => haystack.includes(Buffer.from(needle));

let simulator: TelnetServer;
beforeAll(async () => {
  simulator = await startTelnetServer(device);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  await simulator.close();
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

describe('telnet to a simulated device', () => {
  it('signs in on its own and runs commands in the shell, in the window the terminal reports', async () => {
    const s = await session(simulator.address.port, {
      cols: 100,
      rows: 30,
      login: { username: 'admin', password: 'admin-123' },
    });
    await until(() => expect(s.text()).toContain(PROMPT));
    expect(s.text()).toContain('RUTX11-0042 login: admin');
    expect(s.text()).not.toContain('admin-123');

    s.telnet.write('uname -a\r');
    await until(() => expect(s.text()).toContain('Linux RUTX11-0042'));
    s.telnet.write('stty size\r');
    await until(() => expect(s.text()).toContain('\r\n30 100\r\n'));
    s.telnet.resize(132, 43);
    s.telnet.write('stty size\r');
    await until(() => expect(s.text()).toContain('\r\n43 132\r\n'));
    // 255 and 511 put 0xFF bytes into the NAWS subnegotiation: both sides double them.
    s.telnet.resize(255, 511);
    s.telnet.write('stty size\r');
    await until(() => expect(s.text()).toContain('\r\n511 255\r\n'));
    // A password prompt later in the shell is left to the user.
    s.telnet.write('echo password:');
    await until(() => expect(s.text()).toMatch(/echo password:$/));
    s.telnet.write('\r');
    await until(() => expect(count(s.text(), PROMPT)).toBe(6));
    expect(s.text()).not.toContain('admin-123');

    expect(s.output().includes(IAC)).toBe(false);
    s.telnet.write('exit\r');
    await until(() => expect(s.closed()).toBe(true));
    expect(s.errors).toEqual([]);
  });

  it('refuses a wrong password and leaves the next prompt to the user', async () => {
    const s = await session(simulator.address.port, { login: { username: 'admin', password: 'wrong' } });
    await until(() => expect(s.text()).toContain('Login incorrect'));
    await until(() => expect(count(s.text(), 'login: ')).toBe(2));
    // Had the driver answered this prompt too, `admin` would be taken for the password.
    s.telnet.write('admin\r');
    await until(() => expect(count(s.text(), 'Password: ')).toBe(2));
    s.telnet.write('admin-123\r');
    await until(() => expect(s.text()).toContain(PROMPT));
  });

  it('closes the connection after three wrong passwords', async () => {
    const s = await session(simulator.address.port);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await until(() => expect(count(s.text(), 'login: ')).toBe(attempt));
      s.telnet.write('admin\r');
      await until(() => expect(count(s.text(), 'Password: ')).toBe(attempt));
      s.telnet.write('nope\r');
    }
    await until(() => expect(s.closed()).toBe(true));
    expect(count(s.text(), 'Login incorrect')).toBe(3);
  });

  it('drops a hostile client without disturbing another session', async () => {
    const good = await session(simulator.address.port, {
      login: { username: 'admin', password: 'admin-123' },
    });
    await until(() => expect(good.text()).toContain(PROMPT));

    const flood = await rawClient(simulator.address.port);
    flood.socket.write(Buffer.from([IAC, SB, NAWS, ...Buffer.alloc(100, 0x41)]));
    await until(() => expect(flood.closed()).toBe(true));

    const longLine = await rawClient(simulator.address.port);
    longLine.socket.write(`${'a'.repeat(300)}\r\n`);
    await until(() => expect(longLine.closed()).toBe(true));

    good.telnet.write('echo still here\r');
    await until(() => expect(good.text()).toContain('still here\r\n'));
  });
});

describe('telnet negotiation with a device', () => {
  it('agrees on window, terminal type, echo; refuses the rest once; strips commands from the output', async () => {
    const fake = await fakeDevice((socket) =>
      socket.write(
        Buffer.from([
          ...[IAC, DO, NAWS, IAC, DO, TTYPE, IAC, WILL, ECHO],
          ...[IAC, DO, 99, IAC, DO, 99, IAC, WILL, 98, IAC, WILL, ECHO],
          ...[IAC, SB, TTYPE, 1, IAC, SE],
          ...Buffer.from('a'),
          ...[IAC, IAC],
          ...Buffer.from('b\r\0c'),
        ]),
      ),
    );
    const s = await session(fake.port, { cols: 80, rows: 255 });
    await until(() => expect(s.text()).toContain('c'));
    expect([...s.output()]).toEqual([...Buffer.from('a'), IAC, ...Buffer.from('b\rc')]);

    const xterm = [...Buffer.from('XTERM-256COLOR')];
    await until(() => expect(contains(fake.received(), [IAC, SB, TTYPE, 0, ...xterm, IAC, SE])).toBe(true));
    const received = fake.received();
    expect(contains(received, [IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, 0, IAC, IAC, IAC, SE])).toBe(true);
    expect(contains(received, [IAC, WILL, TTYPE])).toBe(true);
    expect(count(received.toString('latin1'), String.fromCharCode(IAC, DO, ECHO))).toBe(1);
    expect(count(received.toString('latin1'), String.fromCharCode(IAC, WONT, 99))).toBe(1);
    expect(contains(received, [IAC, DONT, 98])).toBe(true);

    const before = received.length;
    s.telnet.write(Buffer.from([...Buffer.from('ls\r'), 0xff]));
    await until(() => expect(fake.received().length).toBe(before + 6));
    expect([...fake.received().subarray(before)]).toEqual([...Buffer.from('ls\r\0'), IAC, IAC]);
  });

  it('answers the sign-in prompts once, and only at the start of the session', async () => {
    let peer: Socket | undefined;
    const fake = await fakeDevice((socket) => {
      peer = socket;
      socket.write('Welcome\r\nrouter login: ');
    });
    const s = await session(fake.port, { login: { username: 'admin', password: 'secret' } });
    await until(() => expect(fake.received().toString()).toBe('admin\r\0'));
    peer!.write('Password: ');
    await until(() => expect(fake.received().toString()).toBe('admin\r\0secret\r\0'));
    peer!.write('\r\nPassword: ');
    await until(() => expect(s.text()).toMatch(/\nPassword: $/));
    // Had the driver answered this prompt, the password would arrive before what the user types.
    s.telnet.write('x\r');
    await until(() => expect(fake.received().toString()).toBe('admin\r\0secret\r\0x\r\0'));

    const late = await fakeDevice((socket) => socket.write(`${'.'.repeat(9000)}\r\nlogin: `));
    const t = await session(late.port, { login: { username: 'admin', password: 'secret' } });
    await until(() => expect(t.text()).toMatch(/login: $/));
    t.telnet.write('x\r');
    await until(() => expect(late.received().toString()).toBe('x\r\0'));
  });

  it('ends the session with an error when the device sends an endless subnegotiation', async () => {
    const fake = await fakeDevice((socket) =>
      socket.write(Buffer.concat([Buffer.from([IAC, SB, TTYPE]), Buffer.alloc(2000, 0x41)])),
    );
    const s = await session(fake.port);
    await until(() => expect(s.closed()).toBe(true));
    expect(s.errors.map((e) => e.message)).toEqual([MALFORMED]);
  });

  it('ends the session with an error when the device floods it with option requests', async () => {
    const requests = Array.from({ length: 300 }, (_, i) => [IAC, i % 2 ? DO : DONT, NAWS]).flat();
    const fake = await fakeDevice((socket) => socket.write(Buffer.from(requests)));
    const s = await session(fake.port);
    await until(() => expect(s.closed()).toBe(true));
    expect(s.errors.map((e) => e.message)).toEqual([MALFORMED]);
  });
});
