import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { OFFLINE_PATH } from '../OfflinePage';

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
  const navigate = useNavigate();
  // An offline browser goes to the offline page on navigation (spec §5 route guard).
  useEffect(() => {
    if (!navigator.onLine && location.pathname !== OFFLINE_PATH) navigate(OFFLINE_PATH);
  }, [location.pathname, navigate]);
  return null;
}
