import { ApiError, CancelledError } from './errors';
import type { MfaChallenge } from './handlers';

/**
 * The second step of product §4 as a flow, whatever draws its dialog: the console's window
 * (lib/dialogs/client-dialogs.tsx) or the sign-in page's own (sign-in/verification-dialog.ts).
 */

/** Codes that keep the verification dialog open with the error (product §4, §8). */
const RETRY_CODES = new Set(['MFA_REQUIRED', 'CONFIRMATION_FAILED']);

export type MfaKind = 'email' | 'totp' | 'vendor';

/** The dialog kind for a response's mfa_method / mfa_type (product §3 Response meta). */
export function mfaKind(method: string): MfaKind {
  const m = method.toLowerCase();
  if (m === 'totp' || m === 'app' || m === 'authenticator') return 'totp';
  if (m === 'vendor' || m === 'oidc' || m === 'sso' || m === 'vendor_id') return 'vendor';
  return 'email';
}

export type Verification = { challenge: MfaChallenge; kind: MfaKind; submitting: boolean };

/** How a drawn dialog ends the verification: with the resent request's result, its failure, or closed. */
export type VerificationOutcome = {
  done(result: unknown): void;
  failed(error: unknown): void;
  /** The dialog closed; before `done` or `failed`, that is a cancel. */
  closed(): void;
};

/** The verification in progress: a resent request that asks again updates it instead of stacking dialogs. */
let current: Verification | null = null;

/**
 * The client's `verify` handler (lib/http/handlers.ts) around a dialog that `open` draws.
 * A challenge with neither method nor message cannot be answered: `unanswerable` says so
 * (product §8) and gives the error the request fails with.
 */
export function verifyThrough(
  open: (verification: Verification, outcome: VerificationOutcome) => void,
  unanswerable: () => Error,
): (challenge: MfaChallenge) => Promise<unknown> {
  return (challenge) => {
    if (!challenge.method && !challenge.message) return Promise.reject(unanswerable());
    if (current?.submitting) {
      // The code was wrong and the server asks again: the open dialog takes the new
      // session data and shows the message.
      current.challenge = challenge;
      return Promise.reject(new ApiError(0, '', [{ code: 'MFA_REQUIRED', message: challenge.message }]));
    }
    const verification: Verification = { challenge, kind: mfaKind(challenge.method), submitting: false };
    current = verification;
    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      open(verification, {
        done: (result) => {
          settled = true;
          resolve(result);
        },
        failed: (error) => {
          settled = true;
          reject(error);
        },
        closed: () => {
          if (current === verification) current = null;
          if (!settled) reject(new CancelledError('Verification cancelled'));
        },
      });
    });
  };
}

/**
 * Sends the code with the original request. Returns the message to show under the field
 * when the dialog stays open (a wrong code); otherwise the outcome is settled and the
 * dialog closes.
 */
export async function submitCode(
  verification: Verification,
  code: string,
  outcome: VerificationOutcome,
): Promise<string | undefined> {
  verification.submitting = true;
  try {
    outcome.done(await verification.challenge.submit(code));
    return undefined;
  } catch (caught) {
    if (caught instanceof ApiError && caught.code && RETRY_CODES.has(caught.code)) return caught.message;
    outcome.failed(caught);
    return undefined;
  } finally {
    verification.submitting = false;
  }
}
