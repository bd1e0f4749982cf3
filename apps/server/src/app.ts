import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createSecretBox, loadSecretKey, type SecretBox } from './auth/secret-key';
import { logStream, requestLogController } from './cli/log-format';
import type { Config } from './config';
import { lockDataDir } from './db/data-dir-lock';
import { type Database, type DatabaseOptions, type Db, openDatabase } from './db/database';
import { type SeedResult, seed } from './db/seed';
import { brokerHooksRoutes } from './gateway/broker-hooks.routes';
import { createGateway, type Gateway } from './gateway/gateway';
import { type DeviceTaps, deviceTaps, type Notify, realtimeNotifier, tapped } from './gateway/notify';
import { registerCompression } from './http/compression';
import { registerErrorHandling } from './http/error-handler';
import { Foreground, registerForeground } from './http/foreground';
import { registerInputGuard } from './http/input-guard';
import { registerJsonBodies } from './http/json-bodies';
import { registerSecurityHeaders } from './http/security-headers';
import { responseSerializer } from './http/serializer';
import { accountRoutes } from './modules/account/account.routes';
import { accountSessionsRoutes } from './modules/account/sessions.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { type AuthService, createAuthService } from './modules/auth/auth.service';
import { type CallerCache, createCallerCache } from './modules/auth/caller-cache';
import { brandRoutes } from './modules/brand/brand.routes';
import { type BrandCache, createBrandCache } from './modules/brand/brand-cache';
import { companiesRoutes } from './modules/companies/companies.routes';
import { deviceActionsRoutes } from './modules/devices/actions.routes';
import { approvedDevicesRoutes } from './modules/devices/approved.routes';
import { batchFinishedNotices } from './modules/devices/batch-notices';
import { deviceDataRoutes } from './modules/devices/data.routes';
import { deviceStore } from './modules/devices/device-store';
import { deviceChannelRules } from './modules/devices/devices.channels';
import { devicesRepository } from './modules/devices/devices.repository';
import { devicesRoutes } from './modules/devices/devices.routes';
import { impersonationRoutes } from './modules/impersonation/impersonation.routes';
import { invitationsRoutes } from './modules/invitations/invitations.routes';
import { localesRoutes } from './modules/locales/locales.routes';
import { mailPlugin } from './modules/mail/mail.plugin';
import { mailRoutes } from './modules/mail/mail.routes';
import { mfaPlugin } from './modules/mfa/mfa.plugin';
import { mfaRoutes } from './modules/mfa/mfa.routes';
import { oidcRoutes } from './modules/mfa/oidc.routes';
import { noticesRoutes } from './modules/notices/notices.routes';
import { notificationsPlugin } from './modules/notifications/notifications.plugin';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { attachDesktopBridge } from './modules/remote/desktop-bridge';
import { createForwards, type Forwards } from './modules/remote/forwards';
import { remoteRoutes } from './modules/remote/remote.routes';
import { remoteService } from './modules/remote/remote.service';
import { watchRemoteAccess } from './modules/remote/remote-watch';
import { attachTerminalBridge } from './modules/remote/terminal-bridge';
import { createTunnelHub, type TunnelHub } from './modules/remote/tunnel-hub';
import { createWebProxy, type WebProxy } from './modules/remote/web-proxy';
import { webProxyRoutes } from './modules/remote/web-proxy.routes';
import { resourcesRoutes } from './modules/resources/resources.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { storageRoutes } from './modules/storage/storage.routes';
import { healthRoutes } from './modules/system/health.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { usersRoutes } from './modules/users/users.routes';
import { EmbeddedBroker } from './mqtt/broker';
import { accessPlugin } from './plugins/access';
import { authPlugin } from './plugins/auth';
import { registerOpenApi } from './plugins/openapi';
import { registerSpa } from './plugins/spa';
import { realtimePlugin } from './realtime/realtime';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    authService: AuthService;
    /** The callers of recent requests, dropped as the database announces changes (modules/auth/caller-cache.ts). */
    callers: CallerCache;
    /** The brands, read on every page load, kept until the database announces a change (modules/brand/brand-cache.ts). */
    brands: BrandCache;
    seedResult: SeedResult;
    broker: EmbeddedBroker | null;
    /** The device gateway (MQTT consumers, command delivery, telemetry batches). */
    gateway: Gateway;
    /** Server-side listeners of what the gateway reports (gateway/notify.ts). */
    deviceTaps: DeviceTaps;
    /** Publishes a device event to browsers and tells the taps: the one way device events go out. */
    deviceNotify: Notify;
    /** Seals secrets stored in the database (SMTP password, TOTP secrets): auth/secret-key.ts. */
    secrets: SecretBox;
    /** Device tunnels: the streams devices open for remote access (modules/remote/tunnel-hub.ts). */
    tunnels: TunnelHub;
    /** Port forwards open on this server (modules/remote/forwards.ts). */
    forwards: Forwards;
    /** The device web page proxy, on an origin of its own (modules/remote/web-proxy.ts). */
    webProxy: WebProxy;
  }
}

export type BuildOptions = {
  /** An already opened database (tests share a snapshot this way). */
  database?: Database;
  /** Where the built console lives; defaults to apps/web/dist. */
  webRoot?: string;
};

function databaseOptions(config: Config): DatabaseOptions {
  if (config.databaseUrl) return { kind: 'postgres', url: config.databaseUrl };
  if (config.inMemoryDatabase) return { kind: 'pglite-memory' };
  return { kind: 'pglite', dataDir: `${config.dataDir}/pglite` };
}

/**
 * Builds the whole server: cross-cutting plugins first, then the feature routes
 * (CONVENTIONS example 7). `server.ts` alone calls listen().
 */
export async function build(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
      // LOG_FORMAT: short readable lines on a terminal, JSON for a log collector.
      stream: logStream(config.logFormat),
    },
    logController: requestLogController(config.logFormat),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer({ checkAnswers: config.env !== 'production' }));
  registerErrorHandling(app);
  registerJsonBodies(app);
  registerInputGuard(app);
  const foreground = new Foreground();
  registerForeground(app, foreground);

  const ownsDataDir = !options.database && !config.databaseUrl && !config.inMemoryDatabase;
  const unlock = ownsDataDir ? lockDataDir(config.dataDir) : () => {};
  let database: Database;
  let broker: EmbeddedBroker | null = null;
  try {
    database = options.database ?? (await openDatabase(databaseOptions(config)));
    if (config.embeddedBroker && !config.mqttUrl)
      broker = await EmbeddedBroker.start(config.mqttPort, config.host);
  } catch (error) {
    unlock();
    throw error;
  }

  // Shutdown order: HTTP first (Fastify drains it before onClose; the realtime
  // plugin drops connected sockets in preClose so that it can), then the socket.io
  // server and its Redis link, the broker and the database.
  app.addHook('onClose', async () => {
    app.log.info('http closed');
    if (app.hasDecorator('realtime')) {
      await app.realtime.close();
      app.log.info('sockets closed');
    }
    // Gateway consumers before the broker, the broker before the database.
    await gateway.stop();
    app.log.info('gateway stopped');
    if (broker) {
      await broker.close();
      app.log.info('broker closed');
    }
    await gateway.drain();
    if (app.hasDecorator('callers')) await app.callers.close();
    if (app.hasDecorator('brands')) await app.brands.close();
    await database.close();
    app.log.info('database closed');
    unlock();
  });

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('broker', broker);
  app.decorate(
    'secrets',
    createSecretBox(
      loadSecretKey({
        secretKey: config.secretKey,
        dataDir: config.dataDir,
        // An in-memory database (tests) dies with the process; so may its key.
        ephemeral: config.inMemoryDatabase,
      }),
    ),
  );
  const taps = deviceTaps();
  taps.commandEnded.add(batchFinishedNotices(app));
  app.decorate('deviceTaps', taps);
  app.decorate('deviceNotify', tapped(realtimeNotifier(app), taps));
  const gateway = createGateway({
    db: database.db,
    store: deviceStore(database.db),
    log: app.log,
    notify: app.deviceNotify,
    broker,
    mqttUrl: config.mqttUrl,
    httpServer: app.server,
    options: {
      retentionDays: config.telemetryRetentionDays,
      sharedGroup: config.mqttSharedGroup,
      vacuum: database.kind === 'pglite',
      // Telemetry writes step aside while a person waits for an answer. With PGlite a write
      // holds the server's thread: a thousand points (about 20 ms) at a time, so that a
      // console request waits behind one short write at most (docs/performance.md §5).
      telemetry: {
        yieldTo: () => foreground.quiet(),
        ...(database.kind === 'pglite' ? { maxWrite: 1000 } : {}),
      },
    },
  });
  app.decorate('gateway', gateway);
  // Remote access: devices connect their streams to the tunnel, browsers their terminals to
  // the bridge; both are upgraded sockets the HTTP server would wait for on close.
  const tunnels = createTunnelHub({
    identity: (serial) => devicesRepository.identityBySerial(database.db, serial),
    log: app.log,
  });
  tunnels.attach(app.server);
  taps.commandEnded.add((batchId, update) => tunnels.commandEnded(batchId, update));
  app.decorate('tunnels', tunnels);
  const terminals = attachTerminalBridge(app, tunnels);
  const desktops = attachDesktopBridge(app, tunnels);
  const forwards = createForwards({ hub: tunnels, bindHost: config.forwardHost });
  app.decorate('forwards', forwards);
  // MQTT-over-WebSocket connections are upgraded sockets the HTTP server would wait for.
  app.addHook('preClose', async () => {
    gateway.closeWebSockets();
    forwards.closeAll();
    terminals.close();
    desktops.close();
    tunnels.close();
  });
  app.addHook('onReady', async () => {
    if (app.hasDecorator('realtime'))
      for (const rule of deviceChannelRules(app)) app.realtime.addChannelRule(rule);
    await gateway.start();
  });
  app.decorate(
    'seedResult',
    await seed(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword }),
  );
  const authService = createAuthService(database.db, config);
  app.decorate('authService', authService);
  const callers = await createCallerCache({ database, auth: authService });
  app.decorate('callers', callers);
  // Device web pages: a listener on PROXY_PORT, never under the console's origin.
  const webProxy = createWebProxy({ hub: tunnels, config, auth: authService, callers, log: app.log });
  app.decorate('webProxy', webProxy);
  app.addHook('onReady', () => webProxy.listen());
  app.addHook('preClose', () => webProxy.close());
  // Remote sessions end within a second when their opener loses the right to them.
  const stopRemoteWatch = await watchRemoteAccess(app, () => [
    ...remoteService.live(),
    ...forwards.watched(),
  ]);
  app.addHook('preClose', async () => {
    await stopRemoteWatch();
    await remoteService.drain('The server stopped');
  });
  app.decorate('brands', await createBrandCache(database));

  // Before every route: both attach to routes as they are added, and every answer carries the headers.
  await registerSecurityHeaders(app);
  await registerCompression(app);
  await app.register(accessPlugin);
  await app.register(fastifyCookie);
  await app.register(authPlugin);
  await app.register(fastifyRateLimit, { global: false, hook: 'preHandler' });
  await registerOpenApi(app);
  await app.register(realtimePlugin);
  await app.register(notificationsPlugin);
  await app.register(mailPlugin);
  await app.register(mfaPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oidcRoutes);
  await app.register(mfaRoutes);
  await app.register(accountRoutes);
  await app.register(accountSessionsRoutes);
  await app.register(tokensRoutes);
  await app.register(impersonationRoutes);
  await app.register(brandRoutes);
  await app.register(storageRoutes);
  await app.register(companiesRoutes);
  await app.register(usersRoutes);
  await app.register(devicesRoutes);
  await app.register(deviceActionsRoutes);
  await app.register(deviceDataRoutes);
  await app.register(approvedDevicesRoutes);
  await app.register(brokerHooksRoutes);
  await app.register(rolesRoutes);
  await app.register(noticesRoutes);
  await app.register(notificationsRoutes);
  await app.register(mailRoutes);
  await app.register(invitationsRoutes);
  await app.register(tagsRoutes);
  await app.register(resourcesRoutes);
  await app.register(remoteRoutes);
  await app.register(webProxyRoutes);
  await app.register(localesRoutes);

  await registerSpa(app, options.webRoot);
  return app;
}
