import {
  eventMessageSchema,
  helloSchema,
  parseJson,
  replySchema,
  statusMessageSchema,
} from '@fleetgate/shared/devices/messages';
import { parseTopic, type UpKind } from '@fleetgate/shared/devices/topics';
import type { z } from 'zod';
import { publishRuleOf } from './access-table';
import type { GatewayContext } from './context';
import { handleEvent } from './handlers/event';
import { handleHello } from './handlers/hello';
import { handleReply } from './handlers/reply';
import { handleStatus } from './handlers/status';
import type { DeviceIdentity } from './ports';

/** How a message reached the server, besides its topic and payload. */
export type Delivery = {
  /** The command a reply answers (its topic's last level). */
  commandId?: string | undefined;
  /**
   * A retained message the broker handed over because the server subscribed (external
   * broker: at start and after every reconnect), not one a device just published.
   */
  replayed: boolean;
};

type Handler<S extends z.ZodType> = {
  schema: S;
  handle: (
    ctx: GatewayContext,
    device: DeviceIdentity,
    message: z.infer<S>,
    delivery: Delivery,
  ) => Promise<void>;
};
const handler = <S extends z.ZodType>(h: Handler<S>) => h as unknown as Handler<z.ZodType>;
/** A kind handed on as bytes: parsed and checked later, off the server's thread. */
type RawHandler = { raw: (ctx: GatewayContext, device: DeviceIdentity, payload: Buffer) => void };

/** One handler per message kind (CONVENTIONS: typed maps, not one long switch). */
const HANDLERS: Record<UpKind, Handler<z.ZodType> | RawHandler> = {
  hello: handler({ schema: helloSchema, handle: handleHello }),
  status: handler({
    schema: statusMessageSchema,
    handle: (ctx, d, m, { replayed }) => handleStatus(ctx, d, m, replayed),
  }),
  // Telemetry joins the next batch; the telemetry worker parses and checks it
  // (telemetry-reports.ts), and the writer reports back what it dropped (onChecked).
  state: { raw: (ctx, device, payload) => ctx.telemetry.report(device, payload) },
  event: handler({ schema: eventMessageSchema, handle: handleEvent }),
  reply: handler({
    schema: replySchema,
    handle: (ctx, d, m, { commandId }) => handleReply(ctx, d, m, commandId!),
  }),
};

export type InboundStats = {
  received: number;
  handled: number;
  droppedOversized: number;
  droppedMalformed: number;
  droppedUnknown: number;
  failed: number;
  /** Messages handled per kind (external mode: how the shared subscription split them). */
  byKind: Record<string, number>;
};

const IDENTITY_TTL_MS = 30_000;
const IDENTITY_CACHE_MAX = 200_000;
const DROP_EVENT_INTERVAL_MS = 60_000;

/**
 * Routes every device message to its handler: topic parsed, size checked against the
 * access table, JSON and schema checked. A bad message is dropped and counted, never
 * thrown: one device cannot take the gateway down.
 */
export class InboundRouter {
  readonly stats: InboundStats = {
    received: 0,
    handled: 0,
    droppedOversized: 0,
    droppedMalformed: 0,
    droppedUnknown: 0,
    failed: 0,
    byKind: {},
  };
  private identities = new Map<string, { identity: DeviceIdentity; at: number }>();
  private lastDropEvent = new Map<number, number>();

  constructor(private readonly ctx: GatewayContext) {
    ctx.telemetry.onChecked((accepted, rejected) => {
      this.counted('state', accepted);
      for (const device of rejected) {
        this.stats.droppedMalformed++;
        void this.dropped(device, 'state', 'malformed payload').catch((error: unknown) =>
          this.ctx.log.error({ err: error }, 'recording a dropped message failed'),
        );
      }
    });
  }

  private counted(kind: UpKind, n = 1): void {
    if (n === 0) return;
    this.stats.handled += n;
    this.stats.byKind[kind] = (this.stats.byKind[kind] ?? 0) + n;
  }

  /**
   * Undefined while the server keeps up, else a promise to wait for before reading the
   * connection's next message (backpressure: TelemetryWriter.room).
   */
  room(): Promise<void> | undefined {
    return this.ctx.telemetry.room();
  }

  /** Forget a cached identity (unregister, identity reset). */
  forget(serial: string): void {
    this.identities.delete(serial);
  }

  /** The cached identity, without a promise per message (the common case). */
  private cachedIdentity(serial: string): DeviceIdentity | undefined {
    const cached = this.identities.get(serial);
    return cached && Date.now() - cached.at < IDENTITY_TTL_MS ? cached.identity : undefined;
  }

  private async identity(serial: string): Promise<DeviceIdentity | undefined> {
    const identity = await this.ctx.store.identity(serial);
    if (this.identities.size >= IDENTITY_CACHE_MAX) this.identities.clear();
    if (identity) this.identities.set(serial, { identity, at: Date.now() });
    else this.identities.delete(serial);
    return identity;
  }

  async handle(
    topic: string,
    payload: Buffer,
    { replayed = false }: { replayed?: boolean } = {},
  ): Promise<void> {
    this.stats.received++;
    const parsed = parseTopic(topic);
    if (parsed?.direction !== 'up') {
      this.stats.droppedUnknown++;
      return;
    }
    try {
      const device = this.cachedIdentity(parsed.serial) ?? (await this.identity(parsed.serial));
      if (!device) {
        this.stats.droppedUnknown++;
        return;
      }
      const rule = publishRuleOf(parsed.kind);
      if (payload.length > rule.maxBytes) {
        this.stats.droppedOversized++;
        await this.dropped(device, parsed.kind, `${payload.length} bytes, limit ${rule.maxBytes}`);
        return;
      }
      const h = HANDLERS[parsed.kind];
      if ('raw' in h) return h.raw(this.ctx, device, payload);
      const result = h.schema.safeParse(parseJson(payload));
      if (!result.success) {
        this.stats.droppedMalformed++;
        await this.dropped(device, parsed.kind, 'malformed payload');
        return;
      }
      await h.handle(this.ctx, device, result.data, {
        commandId: parsed.kind === 'reply' ? parsed.commandId : undefined,
        replayed,
      });
      this.counted(parsed.kind);
    } catch (error) {
      this.stats.failed++;
      this.ctx.log.error({ err: error, topic }, 'device message failed');
    }
  }

  /** Logs a dropped message, and at most once a minute per device as a device event. */
  private async dropped(device: DeviceIdentity, kind: string, why: string): Promise<void> {
    this.ctx.log.warn({ serial: device.serial, kind, why }, 'device message dropped');
    const now = Date.now();
    const last = this.lastDropEvent.get(device.id);
    if (last !== undefined && now - last < DROP_EVENT_INTERVAL_MS) return;
    if (this.lastDropEvent.size > 100_000) this.lastDropEvent.clear();
    this.lastDropEvent.set(device.id, now);
    await this.ctx.recordEvent(device, {
      type: 'protocol.dropped',
      severity: 'warning',
      message: `A ${kind} message was dropped: ${why}`,
    });
  }
}
