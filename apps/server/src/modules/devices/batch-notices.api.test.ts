import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '#src/db/schema/notifications';
import { TestClient } from '#test/app';
import { buildGatewayApp, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { batchFinishedText } from './batch-notices';

/** A finished action tells the person who started it, in the bell, once. */
let app: FastifyInstance;
let admin: TestClient;
let adminId: number;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  app = await buildGatewayApp();
  admin = await new TestClient(app).login();
  adminId = (await admin.get('/api/user')).json().data.id;
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await app.close();
});

const noticesOf = (batchId: string) =>
  app.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, adminId), eq(notifications.onceKey, `batch:${batchId}`)));

describe('finished actions in the bell', () => {
  it('successful-action-notice: a reboot of two devices, one online, one offline then cancelled, ends in one notice', async () => {
    const online = testIdentity('RUTX11');
    const offline = testIdentity('RUTX11');
    const a = await registerDirect(app, online);
    const b = await registerDirect(app, offline);
    agents.push(await onlineAgent(app, online));
    const started = await admin.post('/api/devices/actions', { action: 'reboot', device_id: [a.id, b.id] });
    expect(started.statusCode).toBe(200);
    const batchId = started.json().meta.channel.replace('action.', '') as string;
    const pending = started.json().data.find((r: { device_id: number }) => r.device_id === b.id).command_id;

    // The online device's reboot ends; the batch is still open, so nothing yet.
    await waitFor(
      async () =>
        (await admin.get(`/api/devices/actions/${batchId}`))
          .json()
          .data.some((c: { status: string }) => c.status === 'done'),
      { what: 'the reboot done' },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await noticesOf(batchId)).toHaveLength(0);

    expect((await admin.post(`/api/devices/commands/${pending}/cancel`, {})).statusCode).toBe(200);
    const [notice] = await waitFor(
      async () => {
        const rows = await noticesOf(batchId);
        return rows.length ? rows : undefined;
      },
      { what: 'the notice' },
    );
    expect(notice!.summary).toBe(batchFinishedText('Reboot', 1, 2));
    expect((await admin.get('/api/notifications')).json().data[0].summary).toBe(notice!.summary);
    // Told once, whoever reports the end again.
    for (const tap of app.deviceTaps.commandEnded) tap(batchId);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await noticesOf(batchId)).toHaveLength(1);
  });

  it('a CLI command ends without a notice (its output is in its window)', async () => {
    const identity = testIdentity('RUTX11');
    const device = await registerDirect(app, identity);
    agents.push(await onlineAgent(app, identity));
    const started = await admin.post('/api/devices/actions', {
      action: 'cli',
      device_id: [device.id],
      params: { command: 'uptime' },
    });
    const batchId = started.json().meta.channel.replace('action.', '') as string;
    await waitFor(
      async () => (await admin.get(`/api/devices/actions/${batchId}`)).json().data[0]?.status === 'done',
      { what: 'cli done' },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await noticesOf(batchId)).toHaveLength(0);
  });
});
