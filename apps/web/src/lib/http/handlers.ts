import type { ApiError } from './errors';

/** What the verification dialog needs to ask for the code (product §4 second step, §3 response meta). */
export type MfaChallenge = {
  /** 'email', 'totp' or 'vendor' (the vendor identity service). */
  method: string;
  message: string;
  meta: Record<string, unknown>;
  /**
   * Resends the original request with the code. Resolves when it succeeded; rejects with
   * the ApiError otherwise. The dialog stays open on MFA_REQUIRED and CONFIRMATION_FAILED.
   */
  submit(code: string): Promise<unknown>;
};

type Handlers = {
  /** Asks for the password after a 423; resolves true once /password-confirmation accepted it. */
  confirmPassword: ((message: string) => Promise<boolean>) | null;
  /** Opens the verification dialog; resolves with the resent request's response, or rejects when cancelled. */
  verify: ((challenge: MfaChallenge) => Promise<unknown>) | null;
  /** Error codes handled for the whole console (notice screens), by code. */
  global: Map<string, (error: ApiError) => void>;
};

/**
 * The UI registers these once at start (dialogs live in the shell); the client calls
 * them when a response asks for a password (423) or a second step (MFA_REQUIRED).
 */
export const clientHandlers: Handlers = { confirmPassword: null, verify: null, global: new Map() };
