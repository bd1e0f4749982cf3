import { AUTH_BASE } from '@fleetgate/shared/constants';
import { api } from '#src/lib/http/client';

/** Why the console signed the user out by itself; the sign-in page says so. */
export type SignOutReason = 'idle' | 'ended';

/**
 * Revokes the session and goes where the server says (product §7 POST {auth}/token/revoke);
 * with a reason, the sign-in page tells the user why they are there.
 */
export async function signOut(reason?: SignOutReason): Promise<void> {
  let location = await api
    .post<{ location: string }>(`${AUTH_BASE}/token/revoke`, {}, { noRefresh: true })
    .then((r) => r.data.location)
    .catch(() => '/account/login');
  if (reason && location.startsWith('/account/login')) {
    location += `${location.includes('?') ? '&' : '?'}reason=${reason}`;
  }
  window.location.replace(location);
}
