import { createHash } from 'node:crypto';
import { MODELS, type ModelInfo } from '@fleetgate/shared/devices/catalogue';

/** Who a simulated device is: what a label on a real unit says. */
export type DeviceIdentity = {
  serial: string;
  mac: string;
  model: string;
  firmware: string;
  imei?: string;
};

/** How often each model appears in a simulated fleet (routers dominate, as in the field). */
const MIX: readonly [string, number][] = [
  ['RUTX11', 14],
  ['RUT240', 12],
  ['RUT955', 10],
  ['RUTX12', 6],
  ['RUTM50', 6],
  ['TRB140', 8],
  ['TRB245', 6],
  ['RUT200', 6],
  ['RUTX50', 4],
  ['RUT950', 4],
  ['RUTX09', 3],
  ['RUT360', 3],
  ['TSW202', 3],
  ['TSW212', 2],
  ['SWM240', 1],
  ['TAP100', 3],
  ['TAP200', 2],
  ['OTD140', 2],
  ['OTD500', 2],
  ['TCR100', 3],
];
const MIX_TOTAL = MIX.reduce((sum, [, w]) => sum + w, 0);

function hashBytes(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A 15-digit IMEI with a valid Luhn check digit. */
function imeiFor(seed: Buffer): string {
  let body = '35';
  for (let i = 0; body.length < 14; i++) body += String(seed[i % seed.length]! % 10);
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = Number(body[13 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

function modelFor(h: Buffer): ModelInfo {
  let pick = h.readUInt32BE(0) % MIX_TOTAL;
  for (const [model, weight] of MIX) {
    if (pick < weight) return MODELS[model]!;
    pick -= weight;
  }
  return MODELS.RUTX11!;
}

/**
 * The `index`-th device of a fleet, the same every run: a 10-digit serial from the fleet
 * number, a MAC in Teltonika's range (00:1E:42), a model from the mix, its factory
 * firmware, and an IMEI when it has a modem.
 */
export function fleetDevice(fleet: number, index: number): DeviceIdentity {
  const serial = String(1_100_000_000 + (fleet % 90) * 100_000 + index).padStart(10, '0');
  const h = hashBytes(`fleetgate-sim:${serial}`);
  const info = modelFor(h);
  const mac = [
    '00',
    '1E',
    '42',
    ...[h[4]!, h[5]!, h[6]!].map((b) => b.toString(16).padStart(2, '0').toUpperCase()),
  ].join(':');
  return {
    serial,
    mac,
    model: info.model,
    firmware: info.firmware,
    ...(info.modems > 0 ? { imei: imeiFor(h.subarray(8)) } : {}),
  };
}

/** `count` devices of a fleet. */
export function fleetDevices(fleet: number, count: number, first = 0): DeviceIdentity[] {
  return Array.from({ length: count }, (_, i) => fleetDevice(fleet, first + i));
}

/** Devices as the CSV the import endpoint takes (serial, mac, name). */
export function devicesCsv(devices: readonly DeviceIdentity[]): string {
  return [
    'serial,mac,name',
    ...devices.map((d) => `${d.serial},${d.mac},${d.model}-${d.serial.slice(-4)}`),
  ].join('\n');
}
