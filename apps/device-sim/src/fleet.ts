import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Behaviour, DeviceAgent } from './agent';
import type { DeviceIdentity } from './identity';
import { Random } from './random';
import { DeviceServices } from './services';
import type { PersistentCounters } from './telemetry';

type SavedDevice = { secret?: string; counters?: PersistentCounters };
type SavedFleet = { version: 1; devices: Record<string, SavedDevice> };

export type FleetOptions = {
  url: string;
  devices: readonly DeviceIdentity[];
  /** Where secrets and data counters are kept between runs (a device must keep its secret). */
  stateFile?: string | undefined;
  telemetrySeconds?: number;
  behaviour?: Partial<Behaviour>;
  /** New connections per second while the fleet comes up. */
  connectPerSecond?: number;
  /** Per device and hour: chance of a dropped link, and of a spontaneous reboot. */
  disconnectsPerHour?: number;
  rebootsPerHour?: number;
  reconnectMs?: number;
  /** Each device serves SSH to remote access (services.ts): for the demo, not for load runs. */
  services?: boolean;
  log?: (message: string) => void;
};

/**
 * Many simulated devices in one process: one MQTT connection each, one
 * scheduler for all of them, secrets and counters saved to a state file.
 */
export class Fleet {
  readonly agents = new Map<string, DeviceAgent>();
  private timer: NodeJS.Timeout | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private starting: Promise<void> | undefined;
  private stopped = false;
  private readonly rnd = new Random(Date.now() & 0xffffffff);
  private readonly saved: SavedFleet;

  constructor(private readonly options: FleetOptions) {
    this.saved = this.load();
    for (const identity of options.devices) {
      const s = this.saved.devices[identity.serial];
      const agent = new DeviceAgent({
        url: options.url,
        identity,
        secret: s?.secret,
        counters: s?.counters,
        ...(options.telemetrySeconds ? { telemetrySeconds: options.telemetrySeconds } : {}),
        ...(options.behaviour ? { behaviour: options.behaviour } : {}),
        ...(options.reconnectMs ? { reconnectMs: options.reconnectMs } : {}),
      });
      agent.on('secret', (secret: string) => {
        this.saved.devices[identity.serial] = { ...this.saved.devices[identity.serial], secret };
        this.dirty = true;
        void this.save();
      });
      agent.on('refused', (code: number) =>
        options.log?.(`${identity.serial}: connection refused (code ${code})`),
      );
      this.agents.set(identity.serial, agent);
    }
  }

  /** Connects every device, `connectPerSecond` at a time, and starts the scheduler. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      const perSecond = this.options.connectPerSecond ?? 200;
      let n = 0;
      for (const agent of this.agents.values()) {
        if (this.stopped) return;
        if (this.options.services && !agent.services) agent.services = await DeviceServices.start(agent);
        agent.start();
        if (++n % perSecond === 0) await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    this.timer = setInterval(() => this.tick(), 1000);
    this.saveTimer = setInterval(() => void this.save(), 5000);
    return this.starting;
  }

  private tick(): void {
    const now = Date.now();
    const dropChance = (this.options.disconnectsPerHour ?? 0) / 3600;
    const rebootChance = (this.options.rebootsPerHour ?? 0) / 3600;
    for (const agent of this.agents.values()) {
      agent.tick(now);
      if (!agent.online) continue;
      if (dropChance && this.rnd.chance(dropChance)) agent.dropConnection();
      else if (rebootChance && this.rnd.chance(rebootChance)) void agent.reboot();
    }
  }

  online(): number {
    let n = 0;
    for (const a of this.agents.values()) if (a.online) n++;
    return n;
  }

  private load(): SavedFleet {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return { version: 1, devices: {} };
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as SavedFleet;
      return data.version === 1 && data.devices ? data : { version: 1, devices: {} };
    } catch {
      return { version: 1, devices: {} };
    }
  }

  /** Writes secrets and counters (atomically: a crash never leaves half a file). */
  async save(): Promise<void> {
    const file = this.options.stateFile;
    if (!file) return;
    for (const agent of this.agents.values()) {
      const entry = this.saved.devices[agent.serial] ?? {};
      this.saved.devices[agent.serial] = entry;
      if (entry.counters?.rx !== agent.model.counters.rx) this.dirty = true;
      entry.counters = { ...agent.model.counters };
      if (agent.secret) entry.secret = agent.secret;
    }
    if (!this.dirty) return;
    this.dirty = false;
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(this.saved), { mode: 0o600 });
    renameSync(temp, file);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.saveTimer) clearInterval(this.saveTimer);
    await Promise.allSettled([...this.agents.values()].map((a) => a.stop()));
    await Promise.allSettled([...this.agents.values()].map((a) => a.services?.close()));
    await this.save();
  }
}
