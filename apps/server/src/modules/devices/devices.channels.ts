import { hasPermission } from '@fleetgate/shared/permissions';
import type { FastifyInstance } from 'fastify';
import type { ChannelRule, SocketIdentity } from '#src/realtime/channels';
import type { Scope } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { commandsRepository } from './commands.repository';
import { devicesRepository } from './devices.repository';

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
        return commandsRepository.batchStartedBy(app.db, match[1]!, owners);
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
        return (
          (await devicesRepository.idsInScope(app.db, scopeOfIdentity(identity), [Number(match[1])])).length >
          0
        );
      },
    },
  ];
}
