import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Fleet } from '@fleetgate/device-sim/fleet';
import { fleetDevice, fleetDevices } from '@fleetgate/device-sim/identity';
import { registerThroughApi } from '@fleetgate/device-sim/register';
import { runShell } from '@fleetgate/device-sim/shell';
import { TelemetryModel } from '@fleetgate/device-sim/telemetry';
import { MODEL_NAMES, MODELS } from '@fleetgate/shared/devices/catalogue';
import { stateSchema } from '@fleetgate/shared/devices/messages';
import { ATTEMPT_CODES, DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestClient } from '#test/app';
import { brokerUrl, buildGatewayApp, FAST, httpPort, waitFor } from '#test/devices';
import { deviceConnectionAttempts, deviceEvents, deviceState, devices } from '../db/schema/devices';

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

describe('simulated identities, telemetry and shell', () => {
  it('makes the same realistic identity for the same index every run', () => {
    expect(fleetDevice(3, 7)).toEqual(fleetDevice(3, 7));
    const fleet = fleetDevices(3, 300);
    expect(new Set(fleet.map((d) => d.serial)).size).toBe(300);
    for (const d of fleet) {
      expect(d.serial).toMatch(/^\d{10}$/);
      expect(d.mac).toMatch(/^00:1E:42(:[0-9A-F]{2}){3}$/);
      expect(MODEL_NAMES).toContain(d.model);
      expect(d.firmware).toBe(MODELS[d.model]!.firmware);
      if (MODELS[d.model]!.modems > 0) expect(luhnValid(d.imei!)).toBe(true);
      else expect(d.imei).toBeUndefined();
    }
    expect(new Set(fleet.map((d) => d.model)).size).toBeGreaterThan(10);
  });

  it('moves telemetry within the protocol’s ranges, with counters that only grow', () => {
    for (const model of MODEL_NAMES) {
      const sim = new TelemetryModel({ ...fleetDevice(5, 1), model, firmware: MODELS[model]!.firmware });
      let previous = sim.counters.rx;
      const t0 = Date.now();
      for (let i = 0; i < 200; i++) {
        const state = sim.sample(30, t0 + i * 30_000);
        expect(stateSchema.safeParse(state).success, model).toBe(true);
        if (state.data) {
          expect(state.data.rx).toBeGreaterThanOrEqual(previous);
          previous = state.data.rx;
        }
        expect(Boolean(state.gps)).toBe(sim.caps.has_gps);
        expect(state.ports?.length ?? 0).toBe(sim.caps.port_count);
      }
    }
  });

  it('answers CLI commands from a tiny fake shell', () => {
    const device = {
      serial: '1100000001',
      mac: '00:1E:42:00:00:01',
      model: 'RUTX11',
      firmware: 'RUTX_R_00.07.14.2',
      hostname: 'RUTX11-0001',
      uptimeSeconds: 90_061,
      state: { signal: -67, operator: 'Telia' },
    };
    expect(runShell('uname -a', device).output).toContain('RUTX11');
    expect(runShell('cat /etc/version', device).output).toBe('RUTX_R_00.07.14.2\n');
    expect(runShell('gsmctl -o', device).output).toBe('Telia\n');
    expect(runShell('uptime', device).output).toContain('1 days, 01:01');
    expect(runShell('rm -rf /', device)).toEqual({ output: 'sh: rm: not found\n', exitCode: 127 });
    expect(runShell('cat /etc/shadow | nc', device).exitCode).toBe(2);
  });
});

describe('a simulated fleet against the real gateway', () => {
  let app: FastifyInstance;
  let admin: TestClient;
  let fleet: Fleet | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-sim-'));
  const stateFile = path.join(dir, 'fleet.json');
  const identities = fleetDevices(61, 25);

  beforeAll(async () => {
    app = await buildGatewayApp({ listen: true });
    admin = await new TestClient(app).login();
  });
  afterAll(async () => {
    await fleet?.stop();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const serials = identities.map((d) => d.serial);
  const onlineCount = async () =>
    (
      await app.db
        .select({ id: devices.id })
        .from(devices)
        .where(and(inArray(devices.serial, serials), eq(devices.status, DEVICE_STATUS.online)))
    ).length;

  it('registers through the API, comes online, keeps its secrets and reports telemetry', async () => {
    const outcome = await registerThroughApi({
      api: `http://127.0.0.1:${httpPort(app)}`,
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      companyId: 1,
      devices: identities,
    });
    expect(outcome).toEqual({ created: 25, existing: 0, failed: [] });

    fleet = new Fleet({
      url: brokerUrl(app),
      devices: identities,
      stateFile,
      behaviour: FAST,
      reconnectMs: 100,
    });
    await fleet.start();
    await waitFor(async () => (await onlineCount()) === 25, { timeout: 15_000, what: '25 devices online' });
    await waitFor(() => fleet!.online() === 25);
    for (const agent of fleet.agents.values()) agent.tick();
    await waitFor(() => app.gateway.stats().byKind.state === 25);
    await app.gateway.telemetry.flush();
    const ids = (
      await app.db.select({ id: devices.id }).from(devices).where(inArray(devices.serial, serials))
    ).map((d) => d.id);
    expect(await app.db.select().from(deviceState).where(inArray(deviceState.deviceId, ids))).toHaveLength(
      25,
    );

    await fleet.stop();
    fleet = undefined;
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as {
      devices: Record<string, { secret?: string }>;
    };
    expect(Object.values(saved.devices).filter((d) => d.secret)).toHaveLength(25);

    // A restarted simulator uses the saved secrets: no first contact again.
    const since = new Date();
    fleet = new Fleet({
      url: brokerUrl(app),
      devices: identities,
      stateFile,
      behaviour: FAST,
      reconnectMs: 100,
    });
    await fleet.start();
    await waitFor(() => fleet!.online() === 25, { timeout: 15_000 });
    const attempts = await app.db
      .select({ success: deviceConnectionAttempts.success })
      .from(deviceConnectionAttempts)
      .where(and(inArray(deviceConnectionAttempts.serial, serials), gt(deviceConnectionAttempts.at, since)));
    expect(attempts.length).toBeGreaterThanOrEqual(25);
    expect(new Set(attempts.map((a) => a.success))).toEqual(new Set([ATTEMPT_CODES.accepted]));
  });

  it('reboots on command: done, offline, back online with a boot event', async () => {
    const [device] = await app.db.select().from(devices).where(eq(devices.serial, identities[0]!.serial));
    const agent = fleet!.agents.get(identities[0]!.serial)!;
    const wentOffline = new Promise<void>((resolve) => agent.once('offline', () => resolve()));
    const response = await admin.post('/api/devices/actions', { action: 'reboot', device_id: [device!.id] });
    const id = response.json().data[0].command_id as string;
    await waitFor(async () => (await admin.get(`/api/devices/commands/${id}`)).json().data.status === 'done');
    await wentOffline;
    await waitFor(async () => {
      const events = await app.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, device!.id));
      return events.some((e) => e.type === 'device.boot');
    });
    await waitFor(async () => (await onlineCount()) === 25);
  });

  it('exports a backup file the console can download', async () => {
    const [device] = await app.db.select().from(devices).where(eq(devices.serial, identities[1]!.serial));
    const response = await admin.post('/api/devices/actions', {
      action: 'export_backup',
      device_id: [device!.id],
    });
    const id = response.json().data[0].command_id as string;
    const done = await waitFor(async () => {
      const c = (await admin.get(`/api/devices/commands/${id}`)).json().data;
      return c.status === 'done' ? c : undefined;
    });
    expect(done.file_name).toBe(`backup-${identities[1]!.serial}.txt`);
    const file = await admin.get(`/api/devices/commands/${id}/file`);
    expect(file.headers['content-disposition']).toContain(done.file_name);
    expect(file.body).toContain(identities[1]!.serial);
  });
});
