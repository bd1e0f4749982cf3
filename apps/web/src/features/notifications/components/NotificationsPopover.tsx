import { Anchor, Divider, Loader, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { OverlayProps } from '#src/components/overlay/Deferred';
import { HeaderList } from '#src/components/overlay/HeaderList';
import { useBellNotifications } from '../api/notifications';
import { loadFailureMessage } from '../utils/load-failure';
import { NotificationItem } from './NotificationItem';

type Props = OverlayProps & { onShowAll(): void };

/** The bell's list (NotificationsBell), loaded with its first use. */
export function NotificationsPopover({ opened, onChange, target, onShowAll }: Props) {
  const { t } = useTranslation('notifications');
  // The bell's own query (one cache entry): the list reads its state here, where it is drawn.
  const query = useBellNotifications();
  const rows = query.data?.rows ?? [];
  return (
    <HeaderList
      opened={opened}
      onChange={onChange}
      target={target}
      title={t('title')}
      testId="notifications-list"
      footer={
        <Anchor
          component="button"
          type="button"
          size="sm"
          display="block"
          w="100%"
          ta="center"
          py="sm"
          onClick={onShowAll}
          data-testid="notifications-show-all"
        >
          {t('showAll')}
        </Anchor>
      }
    >
      {query.isError ? (
        <Text c="red" size="sm" px="md" py="lg" ta="center" role="alert" data-testid="notifications-error">
          {loadFailureMessage(query.error, t('loadFailed'))}
        </Text>
      ) : query.isPending ? (
        <Stack align="center" py="lg">
          <Loader size="sm" />
        </Stack>
      ) : rows.length === 0 ? (
        <Text c="dimmed" size="sm" px="md" py="lg" ta="center" data-testid="notifications-empty">
          {t('empty')}
        </Text>
      ) : (
        rows.map((notification, index) => (
          <Fragment key={notification.id}>
            {index > 0 && <Divider />}
            <Stack px="md" py="sm">
              <NotificationItem notification={notification} />
            </Stack>
          </Fragment>
        ))
      )}
    </HeaderList>
  );
}
