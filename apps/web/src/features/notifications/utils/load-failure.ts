import { ApiError } from '#src/lib/http/errors';

/** product §8 Notifications: a load failure shows the first error message, else the fallback. */
export function loadFailureMessage(error: unknown, fallback: string): string {
  return (error instanceof ApiError ? error.errors[0]?.message : undefined) || fallback;
}
