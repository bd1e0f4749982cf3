import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/**
 * 'The network connection has been lost.' when the browser goes offline, and the offline
 * page when the user navigates while offline (spec §4, §5 route guard).
 */
export function NetworkStatus() {
  const { t } = useTranslation('shell');
  const location = useLocation();
  useEffect(() => {
    const lost = () =>
      notifications.show({ id: 'network-lost', color: 'red', message: t('network.lost'), autoClose: false });
    const back = () => notifications.hide('network-lost');
    window.addEventListener('offline', lost);
    window.addEventListener('online', back);
    return () => {
      window.removeEventListener('offline', lost);
      window.removeEventListener('online', back);
    };
  }, [t]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation by design.
  useEffect(() => {
    if (!navigator.onLine) window.location.assign('/offline.html');
  }, [location.pathname]);
  return null;
}
