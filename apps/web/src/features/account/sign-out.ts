import { AUTH_BASE } from '@fleetgate/shared/constants';
import { api } from '../../lib/http/client';

/** Revokes the session and goes where the server says (spec §7 POST {auth}/token/revoke). */
export async function signOut(): Promise<void> {
  const location = await api
    .post<{ location: string }>(`${AUTH_BASE}/token/revoke`, {}, { noRefresh: true })
    .then((r) => r.data.location)
    .catch(() => '/account/login');
  window.location.replace(location);
}
