import { hasPermission } from '@fleetgate/shared/permissions';
import { and, eq, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deviceCommands, devices } from '../../db/schema/devices';
import type { ChannelRule, SocketIdentity } from '../../realtime/channels';
import { companyColumnInScope, companyInScope, type Scope } from '../policy/scope';

function scopeOfIdentity(identity: SocketIdentity): Scope {
  const { company, permissions } = identity.principal;
  return { companyId: company.id, path: company.path, subtree: permissions.includes('view_companies') };
}

const canViewDevices = (identity: SocketIdentity) =>
  hasPermission(identity.principal.permissions, 'view_devices');

/**
 * Who may follow the device channels (shared/devices/events.ts): an action channel only
 * the user who started the action (or the impersonator who did), a company channel the
 * users who reach that company, a device channel the users who reach the device.
 */
export function deviceChannelRules(app: FastifyInstance): ChannelRule[] {
  return [
    {
      name: 'device-actions',
      pattern: /^action\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
      async authorize(identity, match) {
        const owners = [identity.principal.id, identity.actorUserId].filter(
          (id): id is number => id !== null,
        );
        const [row] = await app.db
          .select({ id: deviceCommands.id })
          .from(deviceCommands)
          .where(
            and(
              eq(deviceCommands.batchId, match[1]!),
              or(...owners.map((id) => eq(deviceCommands.createdBy, id))),
            ),
          )
          .limit(1);
        return row !== undefined;
      },
    },
    {
      name: 'company-devices',
      pattern: /^private-company-devices\.(\d{1,10})$/,
      async authorize(identity, match) {
        if (!canViewDevices(identity)) return false;
        return (await companyInScope(app.db, scopeOfIdentity(identity), Number(match[1]))) !== undefined;
      },
    },
    {
      name: 'device',
      pattern: /^private-device\.(\d{1,10})$/,
      async authorize(identity, match) {
        if (!canViewDevices(identity)) return false;
        const [row] = await app.db
          .select({ id: devices.id })
          .from(devices)
          .where(
            and(
              eq(devices.id, Number(match[1])),
              companyColumnInScope(devices.companyId, scopeOfIdentity(identity)),
            ),
          )
          .limit(1);
        return row !== undefined;
      },
    },
  ];
}
