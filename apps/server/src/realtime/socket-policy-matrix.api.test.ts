import { deviceChannels } from '@fleetgate/shared/devices/events';
import { notificationsChannel } from '@fleetgate/shared/events';
import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
import { createUser } from '#test/factories';
import {
  CALLERS,
  matrixCallers,
  matrixTree,
  type Outcome,
  OWN_ONLY,
  RELATIONS,
  type Relation,
  SUBTREE,
} from '#test/policy-matrix';
import {
  cookieHeader,
  listenLocally,
  opened,
  subscribe,
  type TestSocket,
  testSocket,
} from './socket-test-client';

/**
 * The policy matrix for socket subscriptions: the same tree and callers as the HTTP
 * matrices (test/policy-matrix.ts), and the same reach. A channel out of reach is refused
 * with 403 whatever the reason, so 'hidden' reads as refused here.
 */
type Target = { companyId: number; deviceId: number; userId: number };

const REACH: Record<RoleName, Outcome | Record<Relation, Outcome>> = {
  super_admin: 'ok',
  admin: SUBTREE,
  readonly_admin: SUBTREE,
  end_user: OWN_ONLY,
  read_only: OWN_ONLY,
};

const ROWS: { name: string; channel(t: Target): string; expect: typeof REACH }[] = [
  { name: 'private-device.{id}', channel: (t) => deviceChannels.device(t.deviceId), expect: REACH },
  {
    name: 'private-company-devices.{id}',
    channel: (t) => deviceChannels.company(t.companyId),
    expect: REACH,
  },
  {
    name: "another user's private-notifications.{id}",
    channel: (t) => notificationsChannel(t.userId),
    expect: {
      super_admin: 'hidden',
      admin: 'hidden',
      readonly_admin: 'hidden',
      end_user: 'hidden',
      read_only: 'hidden',
    },
  },
];

let app: FastifyInstance;
const sockets = {} as Record<RoleName, TestSocket>;
const targets = {} as Record<Relation, Target>;

beforeAll(async () => {
  app = await buildTestApp();
  const companies = await matrixTree(app);
  const clients: Record<RoleName, TestClient> = await matrixCallers(app, companies.self, 'sockets.test');
  for (const relation of RELATIONS) {
    const companyId = companies[relation];
    const device = await registerDirect(app, testIdentity(), companyId);
    const user = await createUser(app, `${relation}.neighbour@sockets.test`, 'end_user', companyId);
    targets[relation] = { companyId, deviceId: device.id, userId: user.id };
  }
  const url = await listenLocally(app);
  for (const role of [...CALLERS, 'super_admin'] as RoleName[]) {
    sockets[role] = testSocket(url, { cookie: cookieHeader(clients[role].cookies) });
    await opened(sockets[role]);
  }
});

afterAll(async () => {
  for (const socket of Object.values(sockets)) socket.disconnect();
  await app.close();
});

describe('socket subscriptions × role × relation', () => {
  for (const row of ROWS) {
    for (const role of [...CALLERS, 'super_admin'] as RoleName[]) {
      for (const relation of RELATIONS) {
        const expected = row.expect[role];
        const outcome = typeof expected === 'string' ? expected : expected[relation];
        it(`${row.name} — ${role} on ${relation}: ${outcome}`, async () => {
          const ack = await subscribe(sockets[role], row.channel(targets[relation]));
          if (outcome === 'ok') expect(ack).toEqual({ ok: true });
          else expect(ack).toMatchObject({ ok: false, code: 403 });
        });
      }
    }
  }
});
