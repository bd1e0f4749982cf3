import type { Server as HttpServer } from 'node:http';
import { DEVICE_REALTIME_EVENTS, deviceChannels } from '@fleetgate/shared/devices/events';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { vacuumAnalyze } from '../db/maintenance';
import type { EmbeddedBroker } from '../mqtt/broker';
import { CommandDispatcher, type CommandDispatcherOptions } from './command-dispatcher';
import type { GatewayContext } from './context';
import { createDeviceAuthenticator, type DeviceAuthenticator } from './device-auth';
import { EmbeddedTransport } from './embedded-transport';
import { ExternalTransport } from './external-transport';
import { markOffline, markOnline, presenceTurns } from './handlers/presence';
import { InboundRouter, type InboundStats } from './inbound';
import type { Notify } from './notify';
import type { DeviceIdentity, DeviceStore } from './ports';
import { TelemetryWriter, type TelemetryWriterOptions } from './telemetry-writer';

export type GatewayOptions = {
  telemetry?: TelemetryWriterOptions;
  commands?: CommandDispatcherOptions;
  /** Days of telemetry kept (TELEMETRY_RETENTION_DAYS). */
  retentionDays?: number;
  /** Shared-subscription group in external mode. */
  sharedGroup?: string;
  /**
   * Do autovacuum's work with the hourly retention (`vacuum analyze`): PGlite has no
   * autovacuum. Without statistics the devices list plans its searches blind, and without
   * vacuum its index-only walks of device_search read the table as well, and the space of
   * deleted telemetry is never reused (docs/performance.md).
   */
  vacuum?: boolean;
};

export type Gateway = {
  mode: 'embedded' | 'external' | 'none';
  start(): Promise<void>;
  /** Stops consuming, flushes telemetry, waits for command sends; the broker closes after. */
  stop(): Promise<void>;
  /** Closes MQTT-over-WebSocket connections (before the HTTP server closes). */
  closeWebSockets(): void;
  /** Waits for presence updates the closing broker caused (before the database closes). */
  drain(): Promise<void>;
  commands: CommandDispatcher;
  telemetry: TelemetryWriter;
  /** The device authentication the broker hooks use (external broker auth endpoints too). */
  authenticate: DeviceAuthenticator;
  /** Ends the device's session and forgets cached identity (unregister, identity reset). */
  disconnect(serial: string): void;
  /** A device's identity as stored now, not as cached for messages (the broker ACL's question). */
  identity(serial: string): Promise<DeviceIdentity | undefined>;
  stats(): InboundStats & {
    refusedSubscriptions: number;
    refusedPublishes: number;
    telemetryWritten: number;
  };
};

const RETENTION_EVERY_MS = 3600_000;

/**
 * Builds the device gateway: on the embedded broker when there is one, as a client of the
 * external broker when `mqttUrl` is set, else without a transport (commands wait in the
 * database; API tests). What it reads and writes goes through `store` (ports.ts); `db` is
 * only for the hourly vacuum.
 */
export function createGateway(deps: {
  db: Db;
  store: DeviceStore;
  log: FastifyBaseLogger;
  notify: Notify;
  broker: EmbeddedBroker | null;
  mqttUrl?: string | undefined;
  httpServer?: HttpServer;
  options?: GatewayOptions;
}): Gateway {
  const { db, store, log, notify } = deps;
  const options = deps.options ?? {};
  let embedded: EmbeddedTransport | undefined;
  let external: ExternalTransport | undefined;
  const mode: Gateway['mode'] = deps.broker ? 'embedded' : deps.mqttUrl ? 'external' : 'none';

  const telemetry = new TelemetryWriter(store.telemetry, log, notify, options.telemetry);
  const commands = new CommandDispatcher(
    store.commands,
    log,
    notify,
    // Embedded: a live secret session. External: the status the device last reported.
    (device) => (embedded ? embedded.reachable(device.serial) : device.status === 1),
    options.commands,
  );
  const publish = (topic: string, payload: string) => {
    if (embedded) return embedded.publish(topic, payload);
    if (external) return external.publish(topic, payload);
    return Promise.reject(new Error('no MQTT transport'));
  };

  const ctx: GatewayContext = {
    store,
    log,
    notify,
    telemetry,
    commands,
    publish,
    connected: (serial) => (embedded ? embedded.connected(serial) : undefined),
    presenceTurn: presenceTurns(),
    async recordEvent(device, event) {
      const row = await store.recordEvent({
        deviceId: device.id,
        companyId: device.companyId,
        type: event.type,
        severity: event.severity ?? 'info',
        message: event.message,
        data: event.data ?? null,
        ...(event.at ? { at: event.at } : {}),
      });
      notify(deviceChannels.device(device.id), DEVICE_REALTIME_EVENTS.event, {
        device_id: device.id,
        id: row.id,
        at: row.at.toISOString(),
        type: row.type,
        severity: row.severity,
        message: row.message,
      });
    },
  };
  const router = new InboundRouter(ctx);
  const authenticate = createDeviceAuthenticator({
    store: store.auth,
    log,
    claimActive: (serial) => embedded?.claimActive(serial) ?? false,
  });

  const presence = new Set<Promise<void>>();
  const sessionEvent = (serial: string, online: boolean) => {
    const update = (async () => {
      const device = await store.identity(serial);
      if (!device) return;
      if (online) await markOnline(ctx, device, null);
      else await markOffline(ctx, device, null, 'connection closed');
    })().catch((error: unknown) => log.warn({ err: error, serial }, 'presence update failed'));
    presence.add(update);
    void update.finally(() => presence.delete(update));
  };

  if (deps.broker) {
    embedded = new EmbeddedTransport(
      deps.broker,
      authenticate,
      router,
      {
        opened: (s) => sessionEvent(s.serial, true),
        closed: (s) => sessionEvent(s.serial, false),
      },
      log,
    );
    embedded.install();
    if (deps.httpServer) embedded.attachWebSocket(deps.httpServer);
  } else if (deps.mqttUrl) {
    external = new ExternalTransport(deps.mqttUrl, router, log, { group: options.sharedGroup });
  }
  commands.attach(mode === 'none' ? undefined : publish);

  let retentionTimer: NodeJS.Timeout | undefined;
  const retention = async () => {
    const days = options.retentionDays ?? 30;
    const deleted = await store.telemetry.deleteOlderThan(new Date(Date.now() - days * 86_400_000));
    if (deleted) log.info({ deleted }, 'telemetry retention');
  };
  // Hourly only: statistics are stored with the data, so a restart does not need fresh ones.
  const hourly = async () => {
    await retention();
    if (await store.rebalanceSearch()) log.info('device search stretches redrawn');
    if (options.vacuum) await vacuumAnalyze(db);
  };

  return {
    mode,
    commands,
    telemetry,
    authenticate,
    async start() {
      // The embedded broker starts empty: nobody is connected, whatever the last run left.
      if (embedded) await store.presence.markAllOffline();
      telemetry.start();
      commands.start();
      if (external) {
        await external.start();
        // Commands committed while no server was consuming reach devices still online.
        await commands.flushOnline();
      }
      retentionTimer = setInterval(() => void hourly().catch(() => {}), RETENTION_EVERY_MS);
      retentionTimer.unref();
      void retention().catch((error: unknown) => log.warn({ err: error }, 'telemetry retention failed'));
    },
    async stop() {
      if (retentionTimer) clearInterval(retentionTimer);
      if (external) await external.stop();
      await commands.stop();
      await telemetry.stop();
    },
    closeWebSockets() {
      embedded?.closeWebSockets();
    },
    async drain() {
      await Promise.allSettled([...presence]);
    },
    disconnect(serial) {
      router.forget(serial);
      embedded?.disconnect(serial);
    },
    identity: (serial) => store.identity(serial),
    stats() {
      return {
        ...router.stats,
        byKind: { ...router.stats.byKind },
        refusedSubscriptions: embedded?.refusedSubscriptions ?? 0,
        refusedPublishes: embedded?.refusedPublishes ?? 0,
        telemetryWritten: telemetry.written,
      };
    },
  };
}
