import type { DeviceAction } from '@fleetgate/shared/devices/actions';
import type { CommandMessage } from '@fleetgate/shared/devices/messages';
import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { type CommandRecord, commandsRepository } from '../modules/devices/commands.repository';
import { devicesRepository } from '../modules/devices/devices.repository';
import type { DevicePublisher } from './context';
import { type Notify, notifyCommand } from './notify';

export type CommandDispatcherOptions = {
  /** How often expired commands are swept (ms). */
  sweepMs?: number;
};

export function commandMessage(row: CommandRecord): CommandMessage {
  return {
    id: row.id,
    seq: row.seq,
    action: row.action as DeviceAction,
    params: row.params,
    issued_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

/**
 * Delivers durable commands (issue 5 §5). A command is a row before it is a message, so
 * whatever happens between commit and publish (a crash, the device going away), the row
 * is still open and is sent again: when the device next says hello, when a command is
 * added while it is online, and at start for devices already online. Each device's
 * commands go out one flush at a time, in `seq` order; the device deduplicates by id.
 */
export class CommandDispatcher {
  private chains = new Map<number, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  private publisher: DevicePublisher | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    /** Whether this server can reach the device now (a live session, or status online). */
    private readonly reachable: (device: { serial: string; status: number }) => boolean,
    options: CommandDispatcherOptions = {},
  ) {
    this.sweepMs = options.sweepMs ?? 5000;
  }

  /** Sets where commands are published; without one (no broker) commands wait. */
  attach(publisher: DevicePublisher | undefined): void {
    this.publisher = publisher;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.sweepExpired().catch(() => {}), this.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.chains.values()]);
  }

  /** New commands were committed for these devices: send them to those online. */
  kick(deviceIds: readonly number[]): void {
    for (const id of new Set(deviceIds)) void this.flush(id, { onlyIfReachable: true });
  }

  /**
   * Sends every open command of the device, oldest first. Serialised per device so two
   * flushes never interleave their publishes.
   */
  flush(deviceId: number, options: { onlyIfReachable?: boolean } = {}): Promise<void> {
    const previous = this.chains.get(deviceId) ?? Promise.resolve();
    const next = previous
      .then(() => this.send(deviceId, options.onlyIfReachable ?? false))
      .catch((error: unknown) => this.log.warn({ err: error, deviceId }, 'command flush failed'));
    this.chains.set(deviceId, next);
    void next.finally(() => {
      if (this.chains.get(deviceId) === next) this.chains.delete(deviceId);
    });
    return next;
  }

  private async send(deviceId: number, onlyIfReachable: boolean): Promise<void> {
    const publish = this.publisher;
    if (!publish) return;
    const device = await devicesRepository.findById(this.db, deviceId);
    if (!device) return;
    if (onlyIfReachable && !this.reachable(device)) return;
    const open = await commandsRepository.openForDevice(this.db, deviceId);
    for (const row of open) {
      await publish(topics.command(device.serial, row.id), JSON.stringify(commandMessage(row)));
      const updated = await commandsRepository.markSent(this.db, row.id);
      if (updated && row.status === 'pending') notifyCommand(this.notify, updated);
    }
  }

  /** Devices online with open commands get them (start of a server that missed them). */
  async flushOnline(): Promise<void> {
    const ids = await commandsRepository.devicesWithOpenCommands(this.db);
    for (const id of ids) {
      const device = await devicesRepository.findById(this.db, id);
      if (device && device.status === DEVICE_STATUS.online && this.reachable(device)) await this.flush(id);
    }
  }

  /** Open commands past their TTL end as expired; returns how many. */
  async sweepExpired(): Promise<number> {
    const expired = await commandsRepository.expireDue(this.db);
    for (const row of expired) notifyCommand(this.notify, row);
    return expired.length;
  }
}
