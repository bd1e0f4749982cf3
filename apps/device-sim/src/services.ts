import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DEVICE_SELF_HOST, REMOTE_DEFAULT_PORTS } from '@fleetgate/shared/devices/tunnel';
import ssh2 from 'ssh2';
import { runShell, type ShellDevice } from './shell';

const { Server: SshServer, utils } = ssh2;

/** Where one of the device's services listens on this machine. */
export type ServiceAddress = { host: string; port: number };

/** The device a service belongs to: who may sign in, and what its shell sees. */
export type ServiceDevice = {
  readonly serial: string;
  /** The password of the device's `admin` user (the set_password action changes it). */
  password: string;
  shellDevice(): ShellDevice;
};

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const prompt = (device: ShellDevice) => `root@${device.hostname}:~# `;

/**
 * An interactive shell over an SSH channel: echoes what is typed, edits the line with
 * backspace, runs each line through the simulator's shell (the same commands as the CLI
 * action), and ends on `exit` or Ctrl-D.
 */
function interactiveShell(
  channel: NodeJS.ReadWriteStream & { exit(code: number): void; end(): void },
  device: ServiceDevice,
  size: { rows: number; cols: number },
) {
  let line = '';
  const write = (text: string) => channel.write(text.replace(/\r?\n/g, '\r\n'));
  const info = device.shellDevice();
  write(`\nFleetgate simulator, ${info.model} ${info.serial}, firmware ${info.firmware}\n\n${prompt(info)}`);
  channel.on('data', (chunk: Buffer) => {
    for (const char of chunk.toString('utf8')) {
      if (char === '\r' || char === '\n') {
        write('\n');
        const command = line.trim();
        line = '';
        if (command === 'exit' || command === 'logout') {
          channel.exit(0);
          channel.end();
          return;
        }
        // `stty size` answers the window the terminal last reported (pty and window-change).
        if (command === 'stty size') write(`${size.rows} ${size.cols}\n`);
        else if (command) write(runShell(command, device.shellDevice()).output);
        write(prompt(device.shellDevice()));
      } else if (char === '\x7f' || char === '\b') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          write('\b \b');
        }
      } else if (char === '\x04') {
        channel.exit(0);
        channel.end();
        return;
      } else if (char === '\x03') {
        line = '';
        write(`^C\n${prompt(device.shellDevice())}`);
      } else if (char >= ' ') {
        line += char;
        write(char);
      }
    }
  });
}

/**
 * The services a simulated device offers to remote access (docs/device-protocol.md §7): an SSH
 * server (`ssh2`) with its own host key, the user `admin` and the device's password, a shell
 * and `exec`, listening on a loopback port of this machine. A stream is accepted only for the
 * device's own address and a port it serves.
 */
export class DeviceServices {
  private readonly listeners = new Map<number, ServiceAddress>();
  private ssh: InstanceType<typeof SshServer> | undefined;

  private constructor(private readonly device: ServiceDevice) {}

  static async start(device: ServiceDevice): Promise<DeviceServices> {
    const services = new DeviceServices(device);
    await services.startSsh();
    return services;
  }

  /** Hosts of the device's LAN it routes streams to (`serve`), by `host:port`. */
  private readonly lan = new Map<string, ServiceAddress>();

  /** The local address of the device's service at host:port, or undefined when it has none. */
  resolve(host: string, port: number): ServiceAddress | undefined {
    if (host === DEVICE_SELF_HOST || host === 'localhost') return this.listeners.get(port);
    return this.lan.get(`${host}:${port}`);
  }

  /**
   * Adds a service the device reaches: one of its own (host 127.0.0.1) or a LAN host's, played
   * by a listener of this machine (benches and tests put a source or a sink there).
   */
  serve(host: string, port: number, address: ServiceAddress): void {
    if (host === DEVICE_SELF_HOST) this.listeners.set(port, address);
    else this.lan.set(`${host}:${port}`, address);
  }

  async close(): Promise<void> {
    const ssh = this.ssh;
    this.ssh = undefined;
    if (ssh) await new Promise<void>((resolve) => ssh.close(() => resolve()));
  }

  private async startSsh(): Promise<void> {
    const hostKey = utils.generateKeyPairSync('ed25519').private;
    const device = this.device;
    const server = new SshServer({ hostKeys: [hostKey], ident: 'Fleetgate-sim' }, (client) => {
      client.on('authentication', (ctx) => {
        if (ctx.method === 'password' && ctx.username === 'admin' && sameText(ctx.password, device.password))
          return ctx.accept();
        return ctx.reject(['password']);
      });
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept();
          const size = { rows: 24, cols: 80 };
          session.on('pty', (acceptPty, _reject, info) => {
            size.rows = info.rows;
            size.cols = info.cols;
            acceptPty?.();
          });
          session.on('window-change', (acceptChange, _reject, info) => {
            size.rows = info.rows;
            size.cols = info.cols;
            acceptChange?.();
          });
          session.on('shell', (acceptShell) => interactiveShell(acceptShell(), device, size));
          session.on('exec', (acceptExec, _reject, info) => {
            const channel = acceptExec();
            const result = runShell(info.command, device.shellDevice());
            channel.write(result.output);
            channel.exit(result.exitCode);
            channel.end();
          });
        });
      });
      // A client that goes away mid-handshake must not bring the device down.
      client.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.ssh = server;
    this.listeners.set(REMOTE_DEFAULT_PORTS.ssh, {
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
    });
  }
}
