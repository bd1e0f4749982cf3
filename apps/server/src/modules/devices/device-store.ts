import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import type { Db } from '#src/db/database';
import type { DeviceStore } from '#src/gateway/ports';
import { approvedRepository } from './approved.repository';
import { attemptsRepository } from './attempts.repository';
import { commandsRepository } from './commands.repository';
import { deviceBuckets } from './device-search.repository';
import { devicesRepository } from './devices.repository';
import { eventsRepository } from './events.repository';
import { telemetryRepository } from './telemetry.repository';

/**
 * The devices module's side of the gateway's port (gateway/ports.ts): the only way the
 * gateway reaches devices, approvals, attempts, commands, events and telemetry. app.ts
 * builds it once and hands it to createGateway.
 */
export function deviceStore(db: Db): DeviceStore {
  return {
    identity: (serial) => devicesRepository.identityBySerial(db, serial),
    auth: {
      credentials: (serial) => devicesRepository.findBySerial(db, serial),
      openApproval: (serial) => approvedRepository.openForSerial(db, serial),
      async registerApproved(serial, approval) {
        const device = await devicesRepository.insert(db, {
          companyId: approval.companyId,
          serial,
          mac: approval.mac,
          name: serial,
        });
        if (device) await approvedRepository.markRegistered(db, approval.id, device.id);
        return device;
      },
      async markNotActivated(deviceId) {
        await devicesRepository.update(db, deviceId, { status: DEVICE_STATUS.notActivated });
      },
      async confirmSecret(deviceId, secretHash) {
        await devicesRepository.update(db, deviceId, { secretHash, pendingSecretHash: null });
      },
      recordAttempt: (attempt) => attemptsRepository.record(db, attempt),
    },
    presence: {
      presenceOf: (deviceId) => devicesRepository.presenceOf(db, deviceId),
      markOnline: (deviceId, conn, now) => devicesRepository.markOnline(db, deviceId, conn, now),
      markOffline: (deviceId, conn, now) => devicesRepository.markOffline(db, deviceId, conn, now),
      markAllOffline: () => devicesRepository.markAllOffline(db),
    },
    hello: {
      profile: (deviceId) => devicesRepository.findById(db, deviceId),
      save: (deviceId, values) => devicesRepository.update(db, deviceId, values),
      async issueSecret(deviceId, pendingSecretHash, issuedAt) {
        await devicesRepository.update(db, deviceId, { pendingSecretHash, secretIssuedAt: issuedAt });
      },
    },
    commands: {
      target: (deviceId) => devicesRepository.findById(db, deviceId),
      open: (deviceId) => commandsRepository.openForDevice(db, deviceId),
      markSent: (commandId) => commandsRepository.markSent(db, commandId),
      devicesWithOpen: () => commandsRepository.devicesWithOpenCommands(db),
      expireDue: () => commandsRepository.expireDue(db),
      applyReply: (deviceId, commandId, reply) =>
        commandsRepository.applyReply(db, deviceId, commandId, reply),
    },
    telemetry: {
      write: (batch) => telemetryRepository.writeEncoded(db, batch),
      deleteOlderThan: (before) => telemetryRepository.deleteOlderThan(db, before),
    },
    recordEvent: (event) => eventsRepository.insert(db, event),
    rebalanceSearch: () => deviceBuckets.rebalance(db),
  };
}
