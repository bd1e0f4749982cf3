import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * 'The network connection has been lost.' when the browser goes offline (product §4); the
 * route guard (RouteScreen) sends a navigation made offline to the offline page.
 */
export function NetworkStatus() {
  const { t } = useTranslation('shell');
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
  return null;
}
