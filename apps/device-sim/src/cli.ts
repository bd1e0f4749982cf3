import path from 'node:path';
import { parseArgs } from 'node:util';
import { Fleet } from './fleet';
import { fleetDevices } from './identity';
import { registerThroughApi } from './register';

const HELP = `Fleetgate device simulator

  npm run sim -- --devices N --company C [options]

  --devices N        how many devices (default 10)
  --company C        company id the devices are registered to (default 1)
  --url URL          broker: mqtt://host:1883 or ws://host:8080/mqtt (default mqtt://localhost:1883)
  --api URL          console to register the devices through (default http://localhost:8080)
  --no-register      do not register; the devices exist already
  --fleet F          fleet number: devices of fleet F have serials 11FFxxxxxx (default: the company id)
  --interval S       telemetry every S seconds until the server sets a monitoring period (default 30)
  --state FILE       where secrets and counters are kept (default ./data/sim-fleet-F.json)
  --drops-per-hour D    per device and hour, the chance of a dropped link (default 0.5; 0 for none)
  --reboots-per-hour R  per device and hour, the chance of a spontaneous reboot (default 0.1; 0 for none)
  --services         each device serves remote access: SSH with user admin, password admin-<serial>
  --quiet            no per-device messages

  Sign-in for registration: FLEETGATE_EMAIL and FLEETGATE_PASSWORD (or --email/--password).
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10' },
      company: { type: 'string', default: '1' },
      url: { type: 'string', default: 'mqtt://localhost:1883' },
      api: { type: 'string', default: 'http://localhost:8080' },
      'no-register': { type: 'boolean', default: false },
      fleet: { type: 'string' },
      interval: { type: 'string', default: '30' },
      state: { type: 'string' },
      email: { type: 'string', default: process.env.FLEETGATE_EMAIL },
      password: { type: 'string', default: process.env.FLEETGATE_PASSWORD },
      'drops-per-hour': { type: 'string', default: '0.5' },
      'reboots-per-hour': { type: 'string', default: '0.1' },
      services: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const count = Number(values.devices);
  const company = Number(values.company);
  const fleetNo = Number(values.fleet ?? company);
  const interval = Number(values.interval);
  if (![count, company, fleetNo, interval].every((n) => Number.isInteger(n) && n > 0) || count > 100_000) {
    console.error(
      '--devices, --company, --fleet and --interval must be positive whole numbers (devices at most 100000)',
    );
    process.exit(2);
  }
  const dropsPerHour = Number(values['drops-per-hour']);
  const rebootsPerHour = Number(values['reboots-per-hour']);
  if (![dropsPerHour, rebootsPerHour].every((n) => Number.isFinite(n) && n >= 0)) {
    console.error('--drops-per-hour and --reboots-per-hour must be numbers of 0 or more');
    process.exit(2);
  }
  const devices = fleetDevices(fleetNo, count);
  if (!values['no-register']) {
    if (!values.email || !values.password) {
      console.error(
        'Registration signs in to the API: set FLEETGATE_EMAIL and FLEETGATE_PASSWORD, or pass --no-register.',
      );
      process.exit(2);
    }
    const outcome = await registerThroughApi({
      api: values.api,
      email: values.email,
      password: values.password,
      companyId: company,
      devices,
    });
    console.log(
      `Registered ${outcome.created} new devices (${outcome.existing} already registered) in company ${company}.`,
    );
    for (const f of outcome.failed.slice(0, 10)) console.warn(`  ${f.serial}: ${f.message}`);
  }
  const stateFile = path.resolve(values.state ?? `./data/sim-fleet-${fleetNo}.json`);
  const fleet = new Fleet({
    url: values.url,
    devices,
    stateFile,
    telemetrySeconds: interval,
    disconnectsPerHour: dropsPerHour,
    rebootsPerHour: rebootsPerHour,
    services: values.services,
    ...(values.quiet ? {} : { log: (m: string) => console.log(m) }),
  });
  await fleet.start();
  console.log(
    `${count} simulated devices connecting to ${values.url}; secrets kept in ${stateFile}. Ctrl+C stops.`,
  );
  const status = setInterval(() => {
    const mem = Math.round(process.memoryUsage().rss / 1024 / 1024);
    console.log(`online ${fleet.online()}/${count}, memory ${mem} MB`);
  }, 30_000);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(status);
    await fleet.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
