import { type DeviceCapabilities, deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import type { StateMessage } from '@fleetgate/shared/devices/messages';
import type { DeviceIdentity } from './identity';
import { clamp, Random, seedOf } from './random';

/** Where simulated fleets live: a few cities the demo map spreads devices over. */
const PLACES = [
  { lat: 59.9139, lon: 10.7522, operators: ['Telenor', 'Telia'] },
  { lat: 54.6872, lon: 25.2797, operators: ['Telia', 'Bite', 'Tele2'] },
  { lat: 35.6762, lon: 139.6503, operators: ['NTT Docomo', 'KDDI', 'SoftBank'] },
  { lat: 50.4501, lon: 30.5234, operators: ['Kyivstar', 'Vodafone UA', 'lifecell'] },
  { lat: 52.52, lon: 13.405, operators: ['Telekom.de', 'Vodafone.de', 'O2 - de'] },
  { lat: 51.5072, lon: -0.1276, operators: ['EE', 'Vodafone UK', 'O2 - UK'] },
] as const;

/** Counters the device keeps across reboots (its data-usage database). */
export type PersistentCounters = { rx: number; tx: number };

/**
 * Telemetry that moves like a real unit's: signal and temperature as random
 * walks, data counters that only grow, a GPS track for moving units, I/O that flips now
 * and then, ports whose links rarely flap. Values stay in the ranges of the protocol.
 */
export class TelemetryModel {
  readonly caps: DeviceCapabilities;
  private readonly rnd: Random;
  private signal: number;
  private temperature: number;
  private lat: number;
  private lon: number;
  private heading: number;
  private readonly speedKmh: number;
  private readonly operator: string;
  private readonly wanIp: string;
  private din: boolean[];
  private dout: boolean[];
  private ain: number;
  private acl: number;
  private links: boolean[];
  counters: PersistentCounters;
  bootedAt = Date.now();

  constructor(identity: DeviceIdentity, counters?: PersistentCounters) {
    this.caps = deriveCapabilities({ model: identity.model, firmware: identity.firmware });
    this.rnd = new Random(seedOf(identity.serial));
    const place = this.rnd.pick(PLACES);
    this.signal = this.rnd.between(-95, -60);
    this.temperature = this.rnd.between(38, 52);
    this.lat = place.lat + this.rnd.between(-0.08, 0.08);
    this.lon = place.lon + this.rnd.between(-0.12, 0.12);
    this.heading = this.rnd.between(0, 2 * Math.PI);
    // About a third of GNSS units are in vehicles.
    this.speedKmh = this.rnd.chance(0.35) ? this.rnd.between(20, 70) : 0;
    this.operator = this.rnd.pick(place.operators);
    this.wanIp = `100.${64 + this.rnd.int(0, 63)}.${this.rnd.int(0, 255)}.${this.rnd.int(1, 254)}`;
    this.din = [false, this.rnd.chance(0.5)];
    this.dout = [false];
    this.ain = this.rnd.between(11.5, 13.5);
    this.acl = this.rnd.between(4, 20);
    this.links = Array.from({ length: this.caps.port_count }, (_, i) => i === 0 || this.rnd.chance(0.6));
    this.counters = counters ?? { rx: this.rnd.int(0, 5e9), tx: this.rnd.int(0, 1e9) };
  }

  /** A reboot: uptime starts again; counters persist (they only grow). */
  reboot(): void {
    this.bootedAt = Date.now();
  }

  /** Advances the walks by `seconds` and returns the state message. */
  sample(seconds: number, now = Date.now()): StateMessage {
    const r = this.rnd;
    this.signal = clamp(this.signal + r.between(-2.5, 2.5), -115, -51);
    this.temperature = clamp(this.temperature + r.between(-0.6, 0.6), 25, 78);
    const state: StateMessage = {
      at: new Date(now).toISOString(),
      uptime: Math.floor((now - this.bootedAt) / 1000),
      temperature: Math.round(this.temperature * 10) / 10,
      cpu: Math.round(r.between(2, 35)),
      memory: Math.round(r.between(30, 60)),
    };
    if (this.caps.has_mobile) {
      const rx = Math.floor(r.between(2e3, 4e5) * seconds * (r.chance(0.1) ? 20 : 1));
      this.counters.rx += rx;
      this.counters.tx += Math.floor(rx * r.between(0.05, 0.3));
      state.signal = Math.round(this.signal);
      state.rsrp = Math.round(this.signal - r.between(15, 25));
      state.rsrq = Math.round(r.between(-15, -5));
      state.sinr = Math.round(r.between(0, 25));
      state.operator = this.operator;
      state.network_type =
        this.caps.device_series === 'rutm' || this.caps.device_series === 'rutc' ? '5G-NSA' : 'LTE';
      state.sim_slot = 1;
      state.data = { rx: this.counters.rx, tx: this.counters.tx };
      state.wan = { type: 'mobile', ip: this.wanIp };
    } else if (this.caps.has_lan) {
      state.wan = { type: 'wired', ip: this.wanIp };
    }
    if (this.caps.has_gps) {
      if (this.speedKmh > 0) {
        this.heading += r.between(-0.3, 0.3);
        const km = (this.speedKmh * seconds) / 3600;
        this.lat = clamp(this.lat + (km / 111) * Math.cos(this.heading), -89, 89);
        this.lon = clamp(
          this.lon + (km / (111 * Math.cos((this.lat * Math.PI) / 180))) * Math.sin(this.heading),
          -179,
          179,
        );
      }
      state.gps = {
        lat: Math.round(this.lat * 1e6) / 1e6,
        lon: Math.round(this.lon * 1e6) / 1e6,
        alt: Math.round(r.between(20, 180)),
        speed: this.speedKmh ? Math.round(this.speedKmh + r.between(-5, 5)) : 0,
        satellites: r.int(6, 14),
        fix: true,
      };
    }
    if (this.caps.has_io) {
      if (r.chance(0.05)) this.din[1] = !this.din[1];
      this.ain = clamp(this.ain + r.between(-0.2, 0.2), 0, 24);
      this.acl = clamp(this.acl + r.between(-0.5, 0.5), 4, 20);
      state.io = {
        din: [...this.din],
        dout: [...this.dout],
        ain: [Math.round(this.ain * 100) / 100],
        acl: [Math.round(this.acl * 100) / 100],
      };
    }
    if (this.caps.port_count > 0) {
      this.links = this.links.map((up, i) => (i > 0 && r.chance(0.01) ? !up : up));
      state.ports = this.links.map((up, i) => ({
        name: this.caps.port_count > 5 ? `port${i + 1}` : i === 0 ? 'wan' : `lan${i}`,
        link: up ? ('up' as const) : ('down' as const),
        ...(up ? { speed: i === 0 ? 1000 : r.chance(0.8) ? 1000 : 100, duplex: 'full' as const } : {}),
      }));
    }
    return state;
  }

  /** Sets an output (the CLI's `ioctl` command). */
  setOutput(index: number, on: boolean): void {
    if (index >= 0 && index < this.dout.length) this.dout[index] = on;
  }

  get outputs(): readonly boolean[] {
    return this.dout;
  }
}
