/**
 * Firmware versions. A vendor image is named `{PREFIX}_R_{client}.{major}.{minor}[.{patch}]`
 * (`RUTX_R_00.07.14.2`); the comparable version is what follows the client number
 * (`07.14.2`). A bare semver-like version (`7.14.2`, `07.13`) is accepted too (product §5:
 * firmware versions match a semver-like pattern).
 */

const IMAGE = /^[A-Za-z0-9]+_[A-Za-z]+_(\d{2})\.(\d{1,3}(?:\.\d{1,3}){1,2})$/;
const BARE = /^v?(\d{1,3}(?:\.\d{1,3}){1,3})$/;

/** The comparable version of a firmware string ('07.14.2'), or null when it has none. */
export function firmwareVersion(firmware: string | null | undefined): string | null {
  if (!firmware) return null;
  const text = firmware.trim();
  const image = IMAGE.exec(text);
  if (image) return image[2]!;
  const bare = BARE.exec(text);
  return bare ? bare[1]! : null;
}

/**
 * A firmware filter (devices table): a whole image name matches that firmware exactly; a
 * version matches every firmware whose version starts with it, part by part and by number
 * (`07.06` and `7.6` both find `RUT2_R_00.07.06.19`). Anything else is not a filter.
 */
export type FirmwareFilter = { exact: string } | { version: number[] };

export const FIRMWARE_FILTER_MESSAGE = 'Enter a firmware version such as 07.06, or a whole firmware name';

export function firmwareFilterOf(value: string): FirmwareFilter | null {
  const text = value.trim();
  if (IMAGE.test(text)) return { exact: text };
  const bare = BARE.exec(text) ?? /^v?(\d{1,3})$/.exec(text);
  return bare ? { version: parts(bare[1]!) } : null;
}

/** The SQL patterns of a stored firmware's version: an image name's, else a bare one's. */
export const FIRMWARE_VERSION_PATTERNS = {
  image: '^[A-Za-z0-9]+_[A-Za-z]+_[0-9]{2}\\.([0-9]{1,3}(\\.[0-9]{1,3}){1,2})$',
  bare: '^v?([0-9]{1,3}(\\.[0-9]{1,3}){1,3})$',
} as const;

function parts(version: string): number[] {
  return version.split('.').map((p) => Number.parseInt(p, 10));
}

/**
 * Compares two versions numerically, part by part (`07.9` < `07.13`); missing parts count
 * as 0. Returns a negative number, zero or a positive number.
 */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** True when the firmware's version is known and older than `threshold`. */
export function firmwareBefore(firmware: string | null | undefined, threshold: string): boolean {
  const version = firmwareVersion(firmware);
  return version !== null && compareVersions(version, threshold) < 0;
}

/** True when the firmware's version is known and at least `threshold`. */
export function firmwareAtLeast(firmware: string | null | undefined, threshold: string): boolean {
  const version = firmwareVersion(firmware);
  return version !== null && compareVersions(version, threshold) >= 0;
}

/** Firmware thresholds of product §9, and Fleetgate's own for the network map. */
export const FIRMWARE_THRESHOLDS = {
  /** Alerts use the legacy configuration before 07.13 (product §9). */
  legacyAlertsBefore: '07.13',
  /** VPN uses the legacy configuration before 07.06 (product §9). */
  legacyVpnBefore: '07.06',
  /** Topology data for the network map is reported from 07.08 on (docs/device-protocol.md). */
  networkMapFrom: '07.08',
} as const;
