import { existsSync, promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_SELF_HOST, REMOTE_DEFAULT_PORTS } from '@fleetgate/shared/devices/tunnel';
import ssh2 from 'ssh2';
import { interactiveShell } from './interactive-shell';
import { sameText } from './same-text';
import { DeviceFolder, serveSftp } from './sftp';
import { runShell, type ShellDevice } from './shell';
import { startTelnetServer, type TelnetServer } from './telnet';
import { startVncServer, type VncServer } from './vnc';
import { startWebUi, type WebUi } from './webui';

const { Server: SshServer, utils } = ssh2;

/** The LAN computer whose desktop (VNC) every simulated device reaches. */
export const SIMULATED_DESKTOP_HOST = '192.168.1.10';

/** Where one of the device's services listens on this machine. */
export type ServiceAddress = { host: string; port: number };

/** The device a service belongs to: who may sign in, and what its shell sees. */
export type ServiceDevice = {
  readonly serial: string;
  /** The password of the device's `admin` user (the set_password action changes it). */
  password: string;
  shellDevice(): ShellDevice;
};

/**
 * The services a simulated device offers to remote access (docs/device-protocol.md §9), each on
 * a loopback port of this machine: SSH (`ssh2`, its own host key, the user `admin` with the
 * device's password, a shell, `exec` and SFTP over the device's folder), telnet with the same
 * login and shell, a small web UI on port 80 (a login page, a status page with a form), and a
 * VNC desktop (RFB 3.8) on the device and on a LAN computer. A stream is accepted only for an
 * address and port the device serves.
 */
/**
 * A fresh ed25519 host key for the simulated SSH service. ssh2's generator now and then writes
 * a key its own parser refuses ('Malformed OpenSSH private key', about one in 150), which
 * stopped a start that brings many devices' services up; such a key is made again.
 */
export function sshHostKey(): string {
  for (let attempt = 1; ; attempt++) {
    const key = utils.generateKeyPairSync('ed25519').private;
    if (!(utils.parseKey(key) instanceof Error) || attempt >= 20) return key;
  }
}

export class DeviceServices {
  private readonly listeners = new Map<number, ServiceAddress>();
  private ssh: InstanceType<typeof SshServer> | undefined;
  private telnet: TelnetServer | undefined;
  private vnc: VncServer | undefined;
  private web: WebUi | undefined;
  /** Connections to the SSH server: a device going down drops them, as a reboot would. */
  private readonly sshClients = new Set<{ end(): unknown }>();

  private constructor(
    private readonly device: ServiceDevice,
    /** The device's files, as SFTP shows them. */
    readonly folder: DeviceFolder,
  ) {}

  /**
   * Starts the device's services. Its files live in `filesDir` (default: a folder per serial
   * under the system's temporary directory), seeded on first use with a router's few files.
   */
  static async start(device: ServiceDevice, options: { filesDir?: string } = {}): Promise<DeviceServices> {
    const dir = options.filesDir ?? path.join(tmpdir(), 'fleetgate-sim-files', device.serial);
    const fresh = !existsSync(dir);
    const folder = await DeviceFolder.open(dir);
    if (fresh) await seedFiles(dir, device);
    const services = new DeviceServices(device, folder);
    await services.startSsh();
    services.telnet = await startTelnetServer(device);
    services.listeners.set(REMOTE_DEFAULT_PORTS.telnet, services.telnet.address);
    // A desktop on the device and, as remote entries usually reach one, on a LAN computer.
    services.vnc = await startVncServer({ name: `${device.shellDevice().hostname} desktop` });
    services.listeners.set(REMOTE_DEFAULT_PORTS.vnc, services.vnc.address);
    services.lan.set(`${SIMULATED_DESKTOP_HOST}:${REMOTE_DEFAULT_PORTS.vnc}`, services.vnc.address);
    services.web = await startWebUi(device);
    services.listeners.set(REMOTE_DEFAULT_PORTS.http, services.web.address);
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
    for (const client of this.sshClients) client.end();
    await Promise.all([
      ssh && new Promise<void>((resolve) => ssh.close(() => resolve())),
      this.telnet?.close(),
      this.vnc?.close(),
      this.web?.close(),
    ]);
    this.telnet = undefined;
    this.vnc = undefined;
    this.web = undefined;
  }

  private async startSsh(): Promise<void> {
    const hostKey = sshHostKey();
    const device = this.device;
    const server = new SshServer({ hostKeys: [hostKey], ident: 'Fleetgate-sim' }, (client) => {
      this.sshClients.add(client);
      client.on('close', () => this.sshClients.delete(client));
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
          session.on('sftp', (acceptSftp) => serveSftp(acceptSftp(), this.folder));
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

/** A router's few files: configuration, its version, and an empty /tmp to upload to. */
async function seedFiles(dir: string, device: ServiceDevice) {
  const info = device.shellDevice();
  await fs.mkdir(path.join(dir, 'etc/config'), { recursive: true });
  await fs.mkdir(path.join(dir, 'tmp'), { recursive: true });
  await fs.writeFile(path.join(dir, 'etc/version'), `${info.firmware}\n`);
  await fs.writeFile(
    path.join(dir, 'etc/config/system'),
    `config system\n\toption hostname '${info.hostname}'\n\toption timezone 'UTC'\n`,
  );
  await fs.writeFile(
    path.join(dir, 'etc/config/network'),
    "config interface 'lan'\n\toption proto 'static'\n\toption ipaddr '192.168.1.1'\n\toption netmask '255.255.255.0'\n",
  );
}
