/** Device connection states of product §4 and connection-attempt codes of product §8. */

export const DEVICE_STATUS = {
  offline: 0,
  online: 1,
  /** Registered, waiting for its first contact. */
  pending: 2,
  /** Refused for want of an active credit (code 15); any other number reads the same. */
  notActivated: 3,
} as const;
export type DeviceStatus = (typeof DEVICE_STATUS)[keyof typeof DEVICE_STATUS];

/** product §4: 0 Offline, 1 Online, 2 Pending, otherwise Not Activated. */
export function deviceStatusText(status: number | null | undefined): string {
  switch (status) {
    case 0:
      return 'Offline';
    case 1:
      return 'Online';
    case 2:
      return 'Pending';
    default:
      return 'Not Activated';
  }
}

/**
 * Connection-attempt codes. The accepted ones (0, 10, 12, 20, 104) and the refusals 7, 14
 * and 15 are the spec's; the other refusals are Fleetgate's and show their reason.
 */
export const ATTEMPT_CODES = {
  /** Accepted: the device's secret. */
  accepted: 0,
  /** Accepted: first contact proved serial and MAC; a secret is issued. */
  firstContact: 10,
  /** Accepted: the issued secret used for the first time, and now the only credential. */
  secretConfirmed: 12,
  /** Accepted: an approved device (super admin list) registered itself on first contact. */
  approvedRegistered: 20,
  /** Accepted over MQTT-over-WebSocket. */
  acceptedWebSocket: 104,
  /** Refused: identical serial, other MAC (product §8). */
  macMismatch: 7,
  /** Refused: monitoring disabled (product §8). */
  monitoringDisabled: 14,
  /** Refused: no active credit (product §8). */
  noCredit: 15,
  unknownSerial: 40,
  wrongSecret: 41,
  secretRequired: 42,
  badClientId: 43,
  malformedCredentials: 44,
  claimInProgress: 45,
} as const;
export type AttemptCode = (typeof ATTEMPT_CODES)[keyof typeof ATTEMPT_CODES];

/** Codes that let the device in. */
export const ACCEPTED_CODES: readonly number[] = [0, 10, 12, 20, 104];

/** Reasons stored with Fleetgate's own refusal codes (shown as the text, product §8 'otherwise the reason'). */
export const ATTEMPT_REASONS: Record<number, string> = {
  40: 'Unknown serial number',
  41: 'Wrong device secret',
  42: 'Device already has a secret; serial and MAC alone are not accepted',
  43: 'Client id must equal the serial number',
  44: 'Malformed credentials',
  45: 'Another connection is completing this device’s first contact',
};

const DEVICE_COULD_NOT = 'Device could not connect to the system - ';

/** product §8: the log text of a connection attempt by its success code. */
export function attemptText(code: number, reason?: string | null): string {
  if (ACCEPTED_CODES.includes(code)) return 'Device has attempted to connect to the system.';
  if (code === 14) return `${DEVICE_COULD_NOT}device Monitoring was disabled.`;
  if (code === 15) return `${DEVICE_COULD_NOT}device did not have an active credit.`;
  if (code === 7) {
    return `${DEVICE_COULD_NOT}there was a device with an identical serial number but different MAC address already registered.`;
  }
  return reason ?? ATTEMPT_REASONS[code] ?? 'Unknown reason';
}
