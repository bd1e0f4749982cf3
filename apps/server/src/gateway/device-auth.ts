import { normalizeMac } from '@fleetgate/shared/devices/messages';
import { ATTEMPT_CODES, ATTEMPT_REASONS, DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { isSerial } from '@fleetgate/shared/devices/topics';
import type { FastifyBaseLogger } from 'fastify';
import { digest, safeEqual } from '../auth/tokens';
import type { DeviceSession } from './access-table';
import type { AuthStore, DeviceCredentials } from './ports';

export type AuthSource = { alias: 'mqtt' | 'mqtt-ws' | 'broker'; address?: string | undefined };

export type AuthRequest = {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
  source: AuthSource;
};

export type AuthOutcome =
  | { ok: true; code: number; session: DeviceSession }
  | { ok: false; code: number; reason: string };

/** Refused attempts are logged at most once per (serial, address, code) in this window. */
const REFUSAL_LOG_WINDOW_MS = 10_000;
const REFUSAL_LOG_KEYS = 10_000;

export type DeviceAuthenticator = (request: AuthRequest) => Promise<AuthOutcome>;

/**
 * Device authentication (ARCHITECTURE §5, product §8). Username is the serial and the client
 * id must equal it. The password is either the device's secret or, on first contact only,
 * its MAC address. Every outcome is recorded as a connection attempt with the spec's code.
 *
 * `claimActive(serial)` tells whether a first-contact session of that serial is connected
 * right now: a second one is refused instead of taking the first over.
 */
export function createDeviceAuthenticator(deps: {
  store: AuthStore;
  log: FastifyBaseLogger;
  claimActive?: (serial: string) => boolean;
}): DeviceAuthenticator {
  const { store, log } = deps;
  const recentRefusals = new Map<string, number>();

  async function record(
    request: AuthRequest,
    outcome: AuthOutcome,
    device: Pick<DeviceCredentials, 'id' | 'companyId'> | undefined,
    mac: string | null,
  ) {
    const serial = (request.username ?? request.clientId ?? '').slice(0, 64) || '(none)';
    if (!outcome.ok) {
      const key = `${serial}|${request.source.address ?? ''}|${outcome.code}`;
      const now = Date.now();
      const last = recentRefusals.get(key);
      if (last !== undefined && now - last < REFUSAL_LOG_WINDOW_MS) return;
      if (recentRefusals.size >= REFUSAL_LOG_KEYS) recentRefusals.clear();
      recentRefusals.set(key, now);
    }
    try {
      await store.recordAttempt({
        serial,
        mac,
        deviceId: device?.id ?? null,
        companyId: device?.companyId ?? null,
        success: outcome.code,
        accepted: outcome.ok,
        reason: outcome.ok ? null : outcome.reason,
        sourceAlias: request.source.alias,
        sourceName: request.source.address ?? null,
      });
    } catch (error) {
      log.warn({ err: error }, 'could not record a connection attempt');
    }
  }

  const refuse = (code: number, reason = ATTEMPT_REASONS[code] ?? 'Refused'): AuthOutcome => ({
    ok: false,
    code,
    reason,
  });

  async function decide(request: AuthRequest): Promise<{
    outcome: AuthOutcome;
    device?: DeviceCredentials;
    mac: string | null;
  }> {
    const serial = request.username ?? '';
    if (!isSerial(serial) || request.password === undefined) {
      return { outcome: refuse(ATTEMPT_CODES.malformedCredentials), mac: null };
    }
    if (request.clientId !== serial) return { outcome: refuse(ATTEMPT_CODES.badClientId), mac: null };

    const mac = normalizeMac(request.password);
    let device = await store.credentials(serial);
    let approvedCode: number | undefined;

    if (!device) {
      // product §2 auth.devices: an approved serial and MAC registers itself on first contact.
      const approval = mac ? await store.openApproval(serial) : undefined;
      if (!approval || approval.mac !== mac) return { outcome: refuse(ATTEMPT_CODES.unknownSerial), mac };
      if (approval.companyId === null) {
        return {
          outcome: refuse(ATTEMPT_CODES.unknownSerial, 'Approved device has no company assigned'),
          mac,
        };
      }
      device = await store.registerApproved(serial, { ...approval, companyId: approval.companyId });
      if (!device) return { outcome: refuse(ATTEMPT_CODES.unknownSerial), mac };
      approvedCode = ATTEMPT_CODES.approvedRegistered;
    }

    let mode: DeviceSession['mode'];
    let code: number;
    if (mac) {
      // First contact: serial and MAC, accepted only while the device has no secret.
      if (mac !== device.mac) return { outcome: refuse(ATTEMPT_CODES.macMismatch), device, mac };
      if (device.secretHash) return { outcome: refuse(ATTEMPT_CODES.secretRequired), device, mac };
      if (deps.claimActive?.(serial)) return { outcome: refuse(ATTEMPT_CODES.claimInProgress), device, mac };
      mode = 'claim';
      code = approvedCode ?? ATTEMPT_CODES.firstContact;
    } else {
      const presented = digest(request.password);
      if (device.secretHash && safeEqual(presented, device.secretHash)) {
        mode = 'secret';
        code = request.source.alias === 'mqtt-ws' ? ATTEMPT_CODES.acceptedWebSocket : ATTEMPT_CODES.accepted;
      } else if (device.pendingSecretHash && safeEqual(presented, device.pendingSecretHash)) {
        mode = 'secret';
        code = ATTEMPT_CODES.secretConfirmed;
      } else {
        return { outcome: refuse(ATTEMPT_CODES.wrongSecret), device, mac };
      }
    }

    // product §8: identity first, so only the real device learns why it is kept out.
    if (!device.monitoringEnabled) return { outcome: refuse(ATTEMPT_CODES.monitoringDisabled), device, mac };
    if (!device.creditActive) {
      if (device.status !== DEVICE_STATUS.online) await store.markNotActivated(device.id);
      return { outcome: refuse(ATTEMPT_CODES.noCredit), device, mac };
    }

    if (code === ATTEMPT_CODES.secretConfirmed) {
      // The issued secret is now the only credential: serial and MAC no longer work.
      await store.confirmSecret(device.id, device.pendingSecretHash);
    }
    return {
      outcome: {
        ok: true,
        code,
        session: { serial, deviceId: device.id, companyId: device.companyId, mode },
      },
      device,
      mac,
    };
  }

  return async (request) => {
    try {
      const { outcome, device, mac } = await decide(request);
      await record(request, outcome, device, mac);
      return outcome;
    } catch (error) {
      log.error({ err: error }, 'device authentication failed');
      return refuse(ATTEMPT_CODES.malformedCredentials, 'Server error during authentication');
    }
  };
}
