import {
  AUTH_BASE,
  PRODUCT_XSRF_COOKIE,
  TIMEOUTS,
  XSRF_COOKIE,
  XSRF_HEADER,
} from '@fleetgate/shared/constants';
import { readCookie } from '../cookies';

let inFlight: Promise<boolean> | null = null;

async function callRefresh(): Promise<boolean> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  const xsrf = readCookie(PRODUCT_XSRF_COOKIE) ?? readCookie(XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  try {
    const response = await fetch(`${AUTH_BASE}/token/refresh`, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      signal: AbortSignal.timeout(TIMEOUTS.refreshMs),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Refreshes the session once for everyone who asks at the same time. Across tabs a Web
 * Lock serialises refreshes: the server revokes a family whose refresh token is used
 * twice, so two tabs must never present the same one.
 */
export function refreshSession(): Promise<boolean> {
  inFlight ??= (async () => {
    try {
      if (typeof navigator !== 'undefined' && navigator.locks) {
        return await navigator.locks.request('fleetgate-token-refresh', callRefresh);
      }
      return await callRefresh();
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
