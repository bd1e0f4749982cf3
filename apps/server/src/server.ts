import { build } from './app';
import { startBanner } from './cli/start-banner';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/data-dir-lock';
import { type Demo, startDemo } from './modules/devices/demo';

/** The only place that listens: reads the configuration, builds, prints where to go. */
async function main(): Promise<void> {
  // `npm start -- --demo`: a demo company tree with simulated devices.
  const config = loadConfig(process.env, { demo: process.argv.includes('--demo') });
  const app = await build(config);
  let demo: Demo | undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      console.error('Shutdown took too long; exiting.');
      process.exit(1);
    }, 10_000);
    timer.unref();
    // The simulated devices leave first (they say offline), then the server closes.
    await demo?.stop();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      console.error(
        `Cannot listen on ${config.host}:${config.port}: ${code === 'EADDRINUSE' ? 'the port is already in use' : 'permission denied'}. Set PORT to another port.`,
      );
      await app.close();
      process.exit(1);
    }
    throw error;
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (config.demo) demo = await startDemo(app, config);
  // The banner comes last, below every line logged during the start (the logger writes
  // synchronously: cli/log-format.ts), where a newcomer sees the address and the password.
  console.log(
    startBanner({
      host: config.host,
      port,
      database:
        app.database.kind === 'postgres' ? { kind: 'postgres' } : { kind: 'pglite', dataDir: config.dataDir },
      mqtt: app.broker
        ? { kind: 'embedded', port: app.broker.port }
        : config.mqttUrl
          ? { kind: 'external', url: config.mqttUrl }
          : { kind: 'off' },
      demo: demo && { devices: demo.devices, companies: demo.companies },
      admin: app.seedResult.admin,
    }),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error('Fleetgate could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
