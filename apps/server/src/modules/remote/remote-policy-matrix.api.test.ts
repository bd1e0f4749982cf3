import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
import {
  describeMatrix,
  type MatrixRow,
  matrixCallers,
  matrixTree,
  OWN_ONLY,
  RELATIONS,
  type Relation,
  SUBTREE,
} from '#test/policy-matrix';
import { recordTerminal } from './recording';
import { remoteRepository } from './remote.repository';

/**
 * The policy matrix for the remote-access routes (test/policy-matrix.ts has the tree, the
 * callers and the outcomes). A target is a device of the relation's company, a remote entry
 * of it and an ended session on it. Managing entries and ending sessions is an action on the
 * device: view_device_remote_access and manage_devices.
 */
type Target = { deviceId: number; entryId: number; sessionId: string; forwardId: string };
type Row = MatrixRow<Target>;

const EVERYONE = {
  super_admin: 'ok',
  admin: 'ok',
  readonly_admin: 'ok',
  end_user: 'ok',
  read_only: 'ok',
} as const;
const READ: Row['expect'] = {
  super_admin: 'ok',
  admin: SUBTREE,
  readonly_admin: SUBTREE,
  end_user: OWN_ONLY,
  read_only: OWN_ONLY,
};
const MANAGE: Row['expect'] = {
  super_admin: 'ok',
  admin: SUBTREE,
  readonly_admin: 'denied',
  end_user: OWN_ONLY,
  read_only: 'denied',
};

const ROWS: Row[] = [
  {
    // A filter, not an address: another company's device narrows the list to nothing.
    name: 'GET /api/devices/remote-access?device_id=target',
    call: (c, t) => c.get(`/api/devices/remote-access?device_id=${t.deviceId}`),
    expect: EVERYONE,
  },
  {
    name: 'GET /api/devices/remote-access/:id',
    call: (c, t) => c.get(`/api/devices/remote-access/${t.entryId}`),
    expect: READ,
  },
  {
    name: 'POST /api/devices/remote-access (on the target device)',
    call: (c, t) =>
      c.post('/api/devices/remote-access', { device_id: t.deviceId, name: 'Shell', protocol: 'ssh' }),
    expect: MANAGE,
  },
  {
    name: 'PUT /api/devices/remote-access/:id',
    call: (c, t) => c.put(`/api/devices/remote-access/${t.entryId}`, { name: 'Renamed' }),
    expect: MANAGE,
  },
  {
    name: 'DELETE /api/devices/remote-access/:id (a fresh entry)',
    call: async (c, _t, fresh) => c.delete(`/api/devices/remote-access/${(await fresh()).entryId}`),
    expect: MANAGE,
  },
  {
    name: 'GET /api/remote/sessions?device_id=target',
    call: (c, t) => c.get(`/api/remote/sessions?device_id=${t.deviceId}`),
    expect: EVERYONE,
  },
  {
    name: 'GET /api/remote/sessions/:id/recording',
    call: (c, t) => c.get(`/api/remote/sessions/${t.sessionId}/recording`),
    expect: READ,
  },
  {
    // The session has ended: a caller who reaches it is told so (400), one who does not is not (404).
    name: 'DELETE /api/remote/sessions/:id',
    call: (c, t) => c.delete(`/api/remote/sessions/${t.sessionId}`),
    expect: MANAGE,
  },
  {
    name: 'POST /api/remote/forwards (to the target device)',
    call: async (c, t) => {
      const response = await c.post('/api/remote/forwards', { device_id: t.deviceId, minutes: 1 });
      // Opened listeners are closed at once: only who may open one is looked at here.
      if (response.statusCode === 200)
        await clients.super_admin.delete(`/api/remote/forwards/${response.json().data.id}`);
      return response;
    },
    expect: MANAGE,
  },
  {
    name: 'GET /api/remote/forwards?device_id=target',
    call: (c, t) => c.get(`/api/remote/forwards?device_id=${t.deviceId}`),
    expect: EVERYONE,
  },
  {
    name: 'DELETE /api/remote/forwards/:id (a fresh forward)',
    call: async (c, _t, fresh) => c.delete(`/api/remote/forwards/${(await fresh()).forwardId}`),
    expect: MANAGE,
  },
];

let app: FastifyInstance;
let dataDir: string;
const targets = {} as Record<Relation, Target>;
const companyOf = {} as Record<Relation, number>;
const clients = {} as Record<RoleName, TestClient>;

async function targetOf(companyId: number): Promise<Target> {
  const device = await registerDirect(app, testIdentity(), companyId);
  const entryId = await remoteRepository.insertEntry(app.db, {
    deviceId: device.id,
    name: 'Router shell',
    protocol: 'ssh',
    host: '127.0.0.1',
    port: 22,
    enabled: true,
  });
  const sessionId = await remoteRepository.startSession(app.db, {
    companyId,
    deviceId: device.id,
    entryId,
    userId: 1,
    actorUserId: null,
    protocol: 'ssh',
    host: '127.0.0.1',
    port: 22,
    login: 'admin',
  });
  await remoteRepository.endSession(app.db, sessionId, 'The session ended');
  // Recorded, so that its recording is there to be asked for.
  await remoteRepository.markRecorded(app.db, sessionId);
  const cast = recordTerminal(app.config.dataDir, sessionId, { cols: 80, rows: 24, title: 'matrix' });
  cast.output(Buffer.from('root@device:~# '));
  cast.close();
  const forward = await clients.super_admin.post('/api/remote/forwards', {
    device_id: device.id,
    minutes: 1,
  });
  if (forward.statusCode !== 200) throw new Error(forward.body);
  return { deviceId: device.id, entryId, sessionId, forwardId: forward.json().data.id as string };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'fleetgate-matrix-'));
  app = await buildTestApp({ DATA_DIR: dataDir });
  Object.assign(companyOf, await matrixTree(app));
  Object.assign(clients, await matrixCallers(app, companyOf.self, 'remote-matrix.test'));
  for (const relation of RELATIONS) targets[relation] = await targetOf(companyOf[relation]);
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describeMatrix('policy matrix: role × relation × remote-access route', ROWS, {
  clients,
  targets,
  fresh: (relation) => targetOf(companyOf[relation]),
});
