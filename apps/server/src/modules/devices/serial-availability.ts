import { AppError } from '#src/http/errors';
import { attemptCountersRepository } from '../auth/attempt-counters.repository';
import { scopeOf } from '../policy/scope';
import type { ServiceContext } from '../service-context';
import { approvedRepository } from './approved.repository';
import { devicesRepository } from './devices.repository';

/** A serial in the caller's own reach: they can see it, so saying so tells nothing new. */
export const SERIAL_IN_FLEET = 'A device with this serial number is already registered';
/**
 * Any other serial that cannot be registered, whatever the reason (another tenant's device,
 * a serial approved for another company, a MAC that does not match the approval): one
 * answer, so that no tenant learns what another has.
 */
export const SERIAL_UNAVAILABLE =
  'This serial number cannot be registered. Check the serial number and MAC address, or contact your distributor.';
export const SERIAL_PROBING = 'Too many serial numbers that cannot be registered. Try again in an hour.';

/** Unavailable serials one person may try per hour before registration is refused (probing). */
const UNAVAILABLE_PER_HOUR = 100;
const HOUR_MS = 3_600_000;

export type SerialVerdict =
  | { ok: true; approvalId: number | null }
  | { ok: false; message: typeof SERIAL_IN_FLEET | typeof SERIAL_UNAVAILABLE };

/**
 * Whether serials may be registered, and the guessing limit of trying those that may not
 * (docs/security.md, registration).
 */
export const serialAvailabilityService = {
  /**
   * Whether each serial may be registered into `companyId`: a registered serial never moves
   * by registration; an approved serial belongs to its approved company and its approved
   * MAC (an approval without a company waits for the super admin to give it one).
   * Registering into the approved company uses up the approval.
   */
  async verdicts(
    ctx: ServiceContext,
    companyId: number,
    rows: readonly { serial: string; mac: string }[],
  ): Promise<Map<string, SerialVerdict>> {
    const serials = rows.map((r) => r.serial);
    const [registered, approvals] = await Promise.all([
      devicesRepository.registeredSerials(ctx.db, scopeOf(ctx.caller), serials),
      approvedRepository.openForSerials(ctx.db, serials),
    ]);
    const approvalOf = new Map(approvals.map((a) => [a.serial, a]));
    const verdicts = new Map<string, SerialVerdict>();
    for (const { serial, mac } of rows) {
      const device = registered.get(serial);
      const approval = approvalOf.get(serial);
      if (device)
        verdicts.set(serial, { ok: false, message: device.inScope ? SERIAL_IN_FLEET : SERIAL_UNAVAILABLE });
      else if (!approval) verdicts.set(serial, { ok: true, approvalId: null });
      else if (approval.companyId === companyId && approval.mac === mac)
        verdicts.set(serial, { ok: true, approvalId: approval.id });
      else verdicts.set(serial, { ok: false, message: SERIAL_UNAVAILABLE });
    }
    return verdicts;
  },

  /**
   * Counts the unavailable serials a person tried (the real person when impersonating); past
   * UNAVAILABLE_PER_HOUR in an hour every registration is refused with 429, so that answers
   * cannot be collected serial by serial.
   */
  async countUnavailable(ctx: ServiceContext, unavailable: number) {
    const person = ctx.caller.actor?.id ?? ctx.caller.principal.id;
    const counter = await attemptCountersRepository.take(
      ctx.db,
      `serials-unavailable:${person}`,
      new Date(),
      HOUR_MS,
      unavailable,
    );
    if (counter.attempts > UNAVAILABLE_PER_HOUR) throw AppError.of(429, 'RATE_LIMITED', SERIAL_PROBING);
  },
};
