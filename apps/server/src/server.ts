import { build } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/data-dir-lock';
import { type Demo, startDemo } from './modules/devices/demo';

/** The only place that listens: reads the configuration, builds, prints where to go. */
async function main(): Promise<void> {
  // `npm start -- --demo`: a demo company tree with simulated devices (issue 5 §6).
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
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  if (config.demo) demo = await startDemo(app, config);
  const { admin } = app.seedResult;
  const lines = [
    '',
    `  Fleetgate is running at http://${host}:${port}`,
    `  Database: ${app.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    `  MQTT: ${app.broker ? `embedded broker on port ${app.broker.port}` : config.mqttUrl ? `external broker ${new URL(config.mqttUrl).host}` : 'off'}`,
    ...(demo ? [`  Demo: ${demo.devices} simulated devices in ${demo.companies.join(', ')}`] : []),
    `  Super admin: ${admin.email}`,
    admin.generatedPassword
      ? `  Password:    ${admin.generatedPassword}   (generated now and stored hashed; it is not shown again)`
      : admin.created
        ? '  Password:    the one set in ADMIN_PASSWORD'
        : '  Password:    the one printed at the first start (or ADMIN_PASSWORD)',
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error('Fleetgate could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
