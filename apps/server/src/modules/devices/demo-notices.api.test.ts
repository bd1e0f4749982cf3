import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '#src/db/schema/notifications';
import { buildGatewayApp, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createCompany, createUser } from '#test/factories';
import { startDemoNotices } from './demo-notices';

/** The demo's bell: a newcomer sees it work (a low balance, a device that dropped out). */
let app: FastifyInstance;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  app = await buildGatewayApp();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await app.close();
});

const noticesOf = (userId: number) =>
  app.db.select().from(notifications).where(eq(notifications.userId, userId));

describe('demo notifications', () => {
  it('a low balance once, and a demo device that lost its connection, to its company and the super admin', async () => {
    const company = await createCompany(app, 'Demo Logistics');
    const operator = await createUser(app, 'demo.operator@x.test', 'admin', company.id);
    const identity = testIdentity('RUTX11');
    const device = await registerDirect(app, identity, company.id);
    const agent = await onlineAgent(app, identity);
    agents.push(agent);

    const stop = await startDemoNotices(app, {
      companyIds: new Map([['Demo Logistics', company.id]]),
      deviceIds: new Set([device.id]),
    });
    // A second start (the server restarted) does not tell the balance again.
    (
      await startDemoNotices(app, {
        companyIds: new Map([['Demo Logistics', company.id]]),
        deviceIds: new Set(),
      })
    )();
    const balance = (await noticesOf(operator.id)).filter((n) => n.type === 'creditAmountTooLow');
    expect(balance).toHaveLength(1);
    expect(balance[0]!.summary).toMatch(/^Demo Logistics has 3 credits left/);

    await agent.stop(true);
    const dropped = await waitFor(
      async () => (await noticesOf(operator.id)).find((n) => n.summary.includes(identity.serial)),
      { what: 'the offline notice' },
    );
    expect(dropped.summary).toMatch(/lost its connection/);
    // Each recipient's notice is its own insert: wait for the super admin's too.
    const adminTypes = await waitFor(
      async () => {
        const types = (await app.db.select().from(notifications))
          .filter((n) => n.userId !== operator.id)
          .map((n) => n.type)
          .sort();
        return types.length === 2 ? types : undefined;
      },
      { what: "the super admin's notices" },
    );
    expect(adminTypes).toEqual(['creditAmountTooLow', 'message']);
    stop();
  });
});
