import { notificationsChannel } from '@fleetgate/shared/events';
import { pathOf } from '@fleetgate/shared/routes';
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Deferred } from '#src/components/overlay/Deferred';
import { Tip } from '#src/components/overlay/Tip';
import { useAction } from '#src/lib/http/use-action';
import { useCurrentRoute } from '#src/lib/routing/current-route';
import { useSession } from '#src/lib/session/session-context';
import { useChannel } from '#src/lib/socket/useChannel';
import {
  markSeen,
  type NotificationsPage,
  notificationKeys,
  prependPushed,
  useBellNotifications,
} from '../api/notifications';

/** Above this the badge shows 99+. */
const BADGE_MAX = 99;

/**
 * Header widget 1 of product §2: the bell with the unseen count, the newest notifications,
 * 'No notifications' when there are none and a link to all of them. Closing the list (by
 * the bell, an outside click or Escape) marks the listed unseen ones seen and reloads it
 * (product §4 Notification); a notification pushed over the socket is prepended.
 */
export function NotificationsBell() {
  const { t } = useTranslation('notifications');
  const { user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const query = useBellNotifications();
  const [opened, setOpened] = useState(false);
  const markShownSeen = useAction({
    call: (ids: number[]) => markSeen(ids, true),
    failure: { verb: 'update', item: 'notifications' },
    invalidate: [notificationKeys.pages()],
    // A failure leaves them unseen; the reload after it shows what the server holds.
    onFailure: () => {},
  });

  const live = useChannel(notificationsChannel(user.id), 'WebNotificationCreated', (notification) =>
    prependPushed(queryClient, notification),
  );

  const open = () => {
    setOpened(true);
    void query.refetch();
  };

  const close = async () => {
    setOpened(false);
    // What the list showed when it closed, pushed ones included.
    const shown = queryClient.getQueryData<NotificationsPage>(notificationKeys.bell())?.rows ?? [];
    const unseen = shown.filter((n) => n.seen_at === null).map((n) => n.id);
    if (unseen.length > 0) await markShownSeen.run(unseen);
    await query.refetch();
  };

  const showAll = () => {
    void close();
    // product §2: reloads notifications.main if already there.
    if (route.name === 'notifications.main')
      void queryClient.invalidateQueries({ queryKey: notificationKeys.pages() });
    else navigate(pathOf('notifications.main'));
  };

  const unseen = query.data?.unseen ?? 0;

  return (
    <Deferred
      load={() => import('./NotificationsPopover').then((m) => m.NotificationsPopover)}
      opened={opened}
      onChange={(next) => (next ? open() : void close())}
      // The bell opens it itself.
      openOnClick={false}
      props={{ onShowAll: showAll }}
      target={
        <Indicator
          label={unseen > BADGE_MAX ? `${BADGE_MAX}+` : unseen}
          size={18}
          color="red"
          offset={4}
          disabled={unseen === 0}
          data-testid="notifications-badge"
          data-count={unseen}
        >
          <Tip label={t('title')} disabled={opened}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={unseen > 0 ? t('bell.labelUnseen', { count: unseen }) : t('title')}
              aria-expanded={opened}
              onClick={() => (opened ? void close() : open())}
              data-testid="notifications-bell"
              data-live={live || undefined}
            >
              <IconBell size={20} />
            </ActionIcon>
          </Tip>
        </Indicator>
      }
    />
  );
}
