import type { ErrorCode, ErrorEntry } from '@fleetgate/shared/schemas/api';

/**
 * The one module of error classes on the server. Anything thrown that is not an
 * AppError becomes a plain 500 'Internal server error' (see error-handler.ts).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly entries: ErrorEntry[],
    /** Extra `meta` for the body, e.g. the MFA session of a second step. */
    readonly meta?: Record<string, unknown>,
  ) {
    super(entries[0]?.message ?? 'Error');
    this.name = 'AppError';
  }

  static of(status: number, code: ErrorCode, message: string, source?: string): AppError {
    return new AppError(status, [source === undefined ? { code, message } : { code, message, source }]);
  }
}

export const badRequest = (message: string, source?: string) =>
  AppError.of(400, 'VALIDATION_ERROR', message, source);
export const unauthorized = (message = 'Authentication required') =>
  AppError.of(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do this') =>
  AppError.of(403, 'FORBIDDEN', message);
/** Also the answer for another company's ids: cross-tenant access is 404, not 403 (ARCHITECTURE §4). */
export const notFound = (what = 'Resource') => AppError.of(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string, source?: string) => AppError.of(409, 'CONFLICT', message, source);
/** A well-formed request the rules refuse (a host name another brand serves, an image of the wrong kind). */
export const unprocessable = (message: string, source?: string) =>
  AppError.of(422, 'VALIDATION_ERROR', message, source);
export const passwordConfirmationRequired = (message = 'Please confirm your password to continue') =>
  AppError.of(423, 'PASSWORD_CONFIRMATION_REQUIRED', message);
