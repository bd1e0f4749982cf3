import { FAILURE_COUNTER_LIMIT, TIMEOUTS } from '@fleetgate/shared/constants';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { apiRequest } from '../http/client';
import { ApiError, NetworkError, TimeoutError } from '../http/errors';
import { refreshSession } from '../http/refresh';

/** Error codes that show a notice screen instead of the console (product §6, §8 Session). */
export const NOTICE_CODES = ['EMAIL_NOT_VERIFIED', 'NOT_INVITED_EXTERNAL_USER', 'MFA_MANDATORY'] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

export type InitResult =
  | { kind: 'ready'; user: CurrentUser }
  | { kind: 'login' }
  | { kind: 'notice'; code: NoticeCode; message: string; email?: string }
  | { kind: 'maintenance'; message: string };

export type InitDeps = {
  fetchUser(): Promise<CurrentUser>;
  refresh(): Promise<boolean>;
  wait(ms: number): Promise<void>;
};

const defaultDeps: InitDeps = {
  fetchUser: async () =>
    (
      await apiRequest<CurrentUser>('GET', '/user', {
        timeoutMs: TIMEOUTS.userRequestMs,
        noRefresh: true,
        keepOnRouteChange: true,
      })
    ).data,
  refresh: refreshSession,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Messages of product §8 Session for a failed user request. */
function failureMessage(error: unknown): string {
  if (error instanceof TimeoutError || (error instanceof ApiError && error.status === 408))
    return 'User request timeout';
  return 'Failed to get user data';
}

/**
 * Session initialisation of product §4: read the user; on 401 try one refresh and start
 * over, or ask to sign in; three consecutive failures show the maintenance page.
 * Programming errors (anything but an HTTP or network failure) are rethrown.
 */
export async function initSession(deps: InitDeps = defaultDeps): Promise<InitResult> {
  let failures = 0;
  let refreshed = false;
  for (;;) {
    try {
      return { kind: 'ready', user: await deps.fetchUser() };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        if (refreshed || !(await deps.refresh())) return { kind: 'login' };
        refreshed = true;
        continue;
      }
      const notice = error instanceof ApiError ? NOTICE_CODES.find((c) => c === error.code) : undefined;
      if (notice && error instanceof ApiError) {
        // product §8 Session: the notice screen shows the error data (the account's address).
        const email = (error.body as { meta?: { email?: unknown } } | undefined)?.meta?.email;
        return {
          kind: 'notice',
          code: notice,
          message: error.message,
          ...(typeof email === 'string' ? { email } : {}),
        };
      }
      if (!(error instanceof ApiError || error instanceof NetworkError || error instanceof TimeoutError))
        throw error;
      failures += 1;
      if (failures >= FAILURE_COUNTER_LIMIT) return { kind: 'maintenance', message: failureMessage(error) };
      await deps.wait(300 * failures);
    }
  }
}

/** Where an unauthenticated visitor goes: the login page, coming back here afterwards. */
export function loginUrl(current: Location = window.location): string {
  return `/account/login?continue_url=${encodeURIComponent(current.href)}`;
}
