import { DEFAULT_ROLES, type RoleName } from '@fleetgate/shared/roles';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { companies } from '#src/db/schema/companies';
import { deviceCommands, devices } from '#src/db/schema/devices';
import { userMoveLogs } from '#src/db/schema/invitations';
import { users } from '#src/db/schema/users';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, tenantTree } from '#test/factories';
import { devicesRepository } from '../devices/devices.repository';

let app: FastifyInstance;
let admin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

const roleId = (name: RoleName) => DEFAULT_ROLES.find((r) => r.name === name)!.id;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  admin = await new TestClient(app).login();
  await app.db.execute(
    sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit row refused'; end $$`),
  );
});
afterAll(() => app.close());
afterEach(async () => {
  await app.db.execute(sql`drop trigger if exists refuse_audit on audit_log`);
});

/** From now on the database refuses every audit row of `action`, as it would a jsonb it cannot store. */
async function refuseAudit(action: string) {
  if (!/^[a-z_.]+$/.test(action)) throw new Error(`unexpected action ${action}`);
  await app.db.execute(
    sql.raw(`create trigger refuse_audit before insert on audit_log for each row
      when (new.action = '${action}') execute function refuse_audit()`),
  );
}

const allowAudit = () => app.db.execute(sql`drop trigger refuse_audit on audit_log`);

function expectInternalError(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(500);
  expect(errorsOf(response).map((e) => e.code)).toEqual(['INTERNAL_ERROR']);
}

async function auditRows(action: string, targetId: number) {
  return app.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));
}

describe('a change and its audit row commit together or not at all', () => {
  it('failing role update: the permissions stay as they were when the audit row cannot be written', async () => {
    const created = await admin.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'atomic_role',
      title: 'Atomic role',
      permissions: ['view_devices'],
    });
    expect(created.statusCode).toBe(200);
    const id: number = created.json().data.id;
    const permissions = async () => (await admin.get(`/api/roles/${id}`)).json().data.permissions;

    await refuseAudit('role.update');
    const change = { permissions: ['view_devices', 'manage_devices'] };
    expectInternalError(await admin.put(`/api/roles/${id}`, change));
    expect(await permissions()).toEqual(['view_devices']);
    expect(await auditRows('role.update', id)).toHaveLength(0);

    await allowAudit();
    expect((await admin.put(`/api/roles/${id}`, change)).statusCode).toBe(200);
    expect(await permissions()).toEqual(['manage_devices', 'view_devices']);
    expect(await auditRows('role.update', id)).toHaveLength(1);
  });

  it('failing tag update: name and colour stay as they were', async () => {
    const created = await admin.post('/api/tags', {
      company_id: tree.acme.id,
      name: 'Atomic',
      color: '#112233',
    });
    expect(created.statusCode).toBe(200);
    const id: number = created.json().data.id;
    const tag = async () => (await admin.get(`/api/tags/${id}`)).json().data;

    await refuseAudit('tag.update');
    const change = { name: 'Atomic renamed', color: '#445566' };
    expectInternalError(await admin.put(`/api/tags/${id}`, change));
    expect(await tag()).toMatchObject({ name: 'Atomic', color: '#112233' });

    await allowAudit();
    expect((await admin.put(`/api/tags/${id}`, change)).statusCode).toBe(200);
    expect(await tag()).toMatchObject(change);
  });

  it('failing device update: the description stays and no set_info command is queued', async () => {
    const device = await devicesRepository.insert(app.db, {
      companyId: tree.acme.id,
      serial: 'ATOMIC0001',
      mac: '00:1E:42:AA:00:01',
      name: 'Atomic device',
      description: 'Cellar',
    });
    const id = device!.id;
    const stored = async () => {
      const [row] = await app.db.select().from(devices).where(eq(devices.id, id));
      const commands = await app.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, id));
      return { description: row!.description, commands: commands.map((c) => c.action) };
    };

    await refuseAudit('device.update');
    expectInternalError(await admin.put(`/api/devices/${id}`, { description: 'Roof' }));
    expect(await stored()).toEqual({ description: 'Cellar', commands: [] });

    await allowAudit();
    expect((await admin.put(`/api/devices/${id}`, { description: 'Roof' })).statusCode).toBe(200);
    expect(await stored()).toEqual({ description: 'Roof', commands: ['set_info'] });
  });

  it('failing company rename: the name stays as it was', async () => {
    const name = async () => {
      const [row] = await app.db.select().from(companies).where(eq(companies.id, tree.beta.id));
      return row!.name;
    };

    await refuseAudit('company.rename');
    expectInternalError(await admin.put(`/api/companies/${tree.beta.id}`, { name: 'Beta Renamed' }));
    expect(await name()).toBe('Beta');

    await allowAudit();
    expect((await admin.put(`/api/companies/${tree.beta.id}`, { name: 'Beta Renamed' })).statusCode).toBe(
      200,
    );
    expect(await name()).toBe('Beta Renamed');
  });

  it('failing user role change: the user keeps their role', async () => {
    const user = await createUser(app, 'role.atomic@acme.test', 'end_user', tree.acme.id);
    const role = async () => {
      const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
      return row!.roleId;
    };

    await refuseAudit('user.role.change');
    expectInternalError(await admin.put(`/api/users/${user.id}/role`, { role_id: roleId('read_only') }));
    expect(await role()).toBe(roleId('end_user'));

    await allowAudit();
    expect((await admin.put(`/api/users/${user.id}/role`, { role_id: roleId('read_only') })).statusCode).toBe(
      200,
    );
    expect(await role()).toBe(roleId('read_only'));
  });

  it('failing user move: the user stays in their company and no move log is written', async () => {
    const user = await createUser(app, 'move.atomic@acme.test', 'end_user', tree.acme.id);
    const placed = async () => {
      const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
      const logs = await app.db.select().from(userMoveLogs).where(eq(userMoveLogs.userId, user.id));
      return { companyId: row!.companyId, logs: logs.length };
    };
    const move = { user_ids: [user.id], company_id: tree.north.id };

    await refuseAudit('user.move');
    expectInternalError(await admin.post('/api/users/move', move));
    expect(await placed()).toEqual({ companyId: tree.acme.id, logs: 0 });

    await allowAudit();
    expect((await admin.post('/api/users/move', move)).statusCode).toBe(200);
    expect(await placed()).toEqual({ companyId: tree.north.id, logs: 1 });
  });
});
