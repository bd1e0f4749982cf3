import type { DeviceAction } from '@fleetgate/shared/devices/actions';
import type { CommandMessage } from '@fleetgate/shared/devices/messages';
import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import type { FastifyBaseLogger } from 'fastify';
import type { DevicePublisher } from './context';
import { type Notify, notifyCommand } from './notify';
import type { CommandStore, DeviceCommand } from './ports';

export type CommandDispatcherOptions = {
  /** How often expired commands are swept (ms). */
  sweepMs?: number;
};

export function commandMessage(row: DeviceCommand): CommandMessage {
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
 * Delivers durable commands. A command is a row before it is a message, so
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
    private readonly store: CommandStore,
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
   * Commands committed outside the gateway (a request's batch, once its transaction has
   * committed): their channels hear of them, then those of devices online go out.
   */
  dispatch(rows: readonly DeviceCommand[]): void {
    for (const row of rows) notifyCommand(this.notify, row);
    this.kick(rows.map((row) => row.deviceId));
  }

  /** A command changed outside the gateway (cancelled): its channels hear of it. */
  announce(row: DeviceCommand): void {
    notifyCommand(this.notify, row);
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
    const device = await this.store.target(deviceId);
    if (!device) return;
    if (onlyIfReachable && !this.reachable(device)) return;
    const open = await this.store.open(deviceId);
    for (const row of open) {
      await publish(topics.command(device.serial, row.id), JSON.stringify(commandMessage(row)));
      const updated = await this.store.markSent(row.id);
      if (updated && row.status === 'pending') notifyCommand(this.notify, updated);
    }
  }

  /** Devices online with open commands get them (start of a server that missed them). */
  async flushOnline(): Promise<void> {
    const ids = await this.store.devicesWithOpen();
    for (const id of ids) {
      const device = await this.store.target(id);
      if (device && device.status === DEVICE_STATUS.online && this.reachable(device)) await this.flush(id);
    }
  }

  /** Open commands past their TTL end as expired; returns how many. */
  async sweepExpired(): Promise<number> {
    const expired = await this.store.expireDue();
    for (const row of expired) notifyCommand(this.notify, row);
    return expired.length;
  }
}
