import { existsSync } from 'node:fs';
import path from 'node:path';
import { Fleet } from '@fleetgate/device-sim/fleet';
import { fleetDevices } from '@fleetgate/device-sim/identity';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#src/config';
import { companiesRepository } from '../companies/companies.repository';
import { startDemoNotices } from './demo-notices';
import { devicesRepository } from './devices.repository';

/** The demo fleet's number: its serials are 1101xxxxxx. */
const DEMO_FLEET = 1;

/** The demo company tree under the root company, with how its devices are named. */
const DEMO_COMPANIES = [
  { name: 'Acme Logistics', parent: null, share: 0.5, label: 'Truck' },
  { name: 'Acme North', parent: 'Acme Logistics', share: 0.25, label: 'Depot' },
  { name: 'Beta Energy', parent: null, share: 0.25, label: 'Substation' },
] as const;

async function findOrCreateCompany(app: FastifyInstance, name: string, parentId: number) {
  return (
    (await companiesRepository.child(app.db, parentId, name)) ??
    (await companiesRepository.insert(app.db, { name, parentId }))!
  );
}

export type Demo = { fleet: Fleet; devices: number; companies: string[]; stop(): Promise<void> };

/**
 * The demo start (`npm start -- --demo`): a small company tree and
 * `DEMO_DEVICES` simulated devices registered once, then the simulator in-process on the
 * server's broker, so a newcomer sees a living console. Secrets are kept in
 * DATA_DIR/demo-fleet.json; without that file the demo devices start over with first contact.
 */
export async function startDemo(app: FastifyInstance, config: Config): Promise<Demo> {
  const root = await companiesRepository.root(app.db);
  if (!root) throw new Error('no root company');
  const ids = new Map<string, number>();
  for (const c of DEMO_COMPANIES) {
    const parentId = c.parent ? ids.get(c.parent)! : root.id;
    ids.set(c.name, (await findOrCreateCompany(app, c.name, parentId)).id);
  }

  const identities = fleetDevices(DEMO_FLEET, config.demoDevices);
  const existing = await devicesRepository.existingSerials(
    app.db,
    identities.map((d) => d.serial),
  );
  let index = 0;
  for (const c of DEMO_COMPANIES) {
    const count =
      c === DEMO_COMPANIES[DEMO_COMPANIES.length - 1]
        ? identities.length - index
        : Math.round(identities.length * c.share);
    for (let i = 0; i < count && index < identities.length; i++, index++) {
      const d = identities[index]!;
      if (existing.has(d.serial)) continue;
      await devicesRepository.insert(app.db, {
        companyId: ids.get(c.name)!,
        serial: d.serial,
        mac: d.mac,
        name: `${c.label} ${String(i + 1).padStart(2, '0')}`,
        description: `Demo ${d.model}`,
      });
    }
  }

  const stateFile = path.join(config.dataDir, 'demo-fleet.json');
  if (!existsSync(stateFile)) {
    // The simulator lost its secrets (or this is the first start): let the demo devices
    // make first contact again.
    await devicesRepository.forgetSecrets(
      app.db,
      identities.map((d) => d.serial),
    );
  }
  const url = config.mqttUrl ?? `mqtt://127.0.0.1:${app.broker?.port ?? config.mqttPort}`;
  const fleet = new Fleet({
    url,
    devices: identities,
    stateFile,
    telemetrySeconds: 10,
    disconnectsPerHour: 1,
    rebootsPerHour: 0.2,
    // The demo's devices answer remote access: SSH with user admin and password admin-<serial>.
    services: true,
    log: (message) => app.log.debug(message),
  });
  await fleet.start();
  const demoDevices = await devicesRepository.idsBySerial(
    app.db,
    identities.map((d) => d.serial),
  );
  const stopNotices = await startDemoNotices(app, { companyIds: ids, deviceIds: new Set(demoDevices) });
  return {
    fleet,
    devices: identities.length,
    companies: DEMO_COMPANIES.map((c) => c.name),
    async stop() {
      stopNotices();
      await fleet.stop();
    },
  };
}
