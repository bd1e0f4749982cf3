import { AUTH_BASE } from '@fleetgate/shared/constants';
import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { api } from '#src/lib/http/client';

/** `/logout` (standalone, product §2): revoke the session and go where the server says. */
export function LogoutPage() {
  useEffect(() => {
    let cancelled = false;
    api
      .post<{ location: string }>(`${AUTH_BASE}/token/revoke`, {}, { noRefresh: true })
      .then((r) => r.data.location)
      .catch(() => '/account/login')
      .then((location) => {
        if (!cancelled) window.location.replace(location);
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <Center mih="100vh">
      <Loader />
    </Center>
  );
}
