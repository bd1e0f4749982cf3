import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DeviceIdentity, fleetDevices } from '@fleetgate/device-sim/identity';
import { topics } from '@fleetgate/shared/devices/topics';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { pageApi } from '../support/api';
import { REPO_ROOT, type RunningServer } from '../support/server';

/** The embedded broker's port, from the server's banner ("MQTT: embedded broker on port N"). */
export async function brokerPort(server: RunningServer): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const match = /embedded broker on port (\d+)/.exec(server.output());
    if (match) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no embedded broker in the banner:\n${server.output()}`);
}

/** The id of a fixture company, read as the signed-in super admin. */
export async function companyId(page: Page, name: string): Promise<number> {
  const response = await pageApi<{ data: { id: number; name: string }[] }>(
    page,
    'GET',
    `/api/companies?q=${encodeURIComponent(name)}&limit=100`,
  );
  const found = response.body.data.find((c) => c.name === name);
  if (!found) throw new Error(`no company ${name}`);
  return found.id;
}

/** Registers devices through the API (console 'Add device'); returns their ids by serial. */
export async function registerDevices(
  page: Page,
  company: number,
  devices: readonly (DeviceIdentity & { name?: string })[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const device of devices) {
    const response = await pageApi<{ data: { id: number } }>(page, 'POST', '/api/devices', {
      serial: device.serial,
      mac: device.mac,
      company_id: company,
      ...(device.name ? { name: device.name } : {}),
    });
    if (response.status !== 200) throw new Error(`registration failed: ${JSON.stringify(response.body)}`);
    ids.set(device.serial, response.body.data.id);
  }
  return ids;
}

export { fleetDevices };

/** The real simulator (apps/device-sim) as a child process, the way an operator runs it. */
export class Simulator {
  private child: ChildProcess | null = null;
  private log = '';
  readonly stateDir = mkdtempSync(path.join(tmpdir(), 'fleetgate-sim-'));

  constructor(
    private readonly options: {
      port: number;
      fleet: number;
      count: number;
      company: number;
      interval?: number;
      /** The devices serve remote access (SSH) too. */
      services?: boolean;
    },
  ) {}

  start(): void {
    const { port, fleet, count, company, interval = 2 } = this.options;
    this.child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/device-sim/src/cli.ts',
        '--devices',
        String(count),
        '--company',
        String(company),
        '--fleet',
        String(fleet),
        '--url',
        `mqtt://127.0.0.1:${port}`,
        '--no-register',
        '--interval',
        String(interval),
        '--state',
        path.join(this.stateDir, 'fleet.json'),
        // No random drops or reboots: a test decides when a device goes away.
        '--drops-per-hour',
        '0',
        '--reboots-per-hour',
        '0',
        ...(this.options.services ? ['--services'] : []),
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.log += chunk.toString();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.log += chunk.toString();
    });
  }

  get running(): boolean {
    return this.child !== null;
  }

  output(): string {
    return this.log;
  }

  /** SIGTERM: the simulator says offline and disconnects, as a shut-down unit does. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/**
 * A hand-made hostile device (not the simulator): it completes first contact, then reports
 * markup in every free-text field it has (hostname, operator, an event message). The
 * console must show all of it as text ('Done when').
 */
export async function hostileDevice(port: number, device: DeviceIdentity, markup: string): Promise<void> {
  const url = `mqtt://127.0.0.1:${port}`;
  const base = {
    clientId: device.serial,
    username: device.serial,
    clean: false,
    protocolVersion: 4 as const,
  };
  const hello = JSON.stringify({
    serial: device.serial,
    mac: device.mac,
    model: device.model,
    firmware: device.firmware,
    hostname: markup,
  });
  const claim = await mqtt.connectAsync(url, { ...base, password: device.mac });
  const secret = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no secret issued (was the hello valid?)')), 10_000);
    claim.on('message', (_topic, payload) => {
      clearTimeout(timer);
      resolve((JSON.parse(payload.toString()) as { secret: string }).secret);
    });
  });
  await claim.subscribeAsync(topics.secret(device.serial), { qos: 1 });
  await claim.publishAsync(topics.hello(device.serial), hello, { qos: 1 });
  const password = await secret;
  await claim.endAsync();

  const client = await mqtt.connectAsync(url, { ...base, password });
  await client.publishAsync(
    topics.status(device.serial),
    JSON.stringify({ state: 'online', conn: 'hostile' }),
    {
      qos: 1,
      retain: true,
    },
  );
  await client.publishAsync(topics.hello(device.serial), hello, { qos: 1 });
  await client.publishAsync(topics.state(device.serial), JSON.stringify({ operator: markup, signal: -70 }), {
    qos: 1,
  });
  await client.publishAsync(
    topics.event(device.serial),
    JSON.stringify({ type: 'test.markup', severity: 'warning', message: markup }),
    { qos: 1 },
  );
  await client.endAsync();
}
