import { notificationsChannel } from '@fleetgate/shared/events';
import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import { Alert, Anchor, Badge, Button, Center, Loader, Text } from '@mantine/core';
import { IconChecks, IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { type Column, PagedTable } from '#src/components/table/PagedTable';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { useChannel } from '#src/lib/socket/useChannel';
import { formatTime } from '#src/lib/time';
import { markSeen, notificationKeys, useNotificationsPage } from './api/notifications';
import { useTypeLabel } from './components/NotificationItem';
import { buyLinkFor } from './utils/buy-link';
import { loadFailureMessage } from './utils/load-failure';

export const PAGE_SIZE = 25;

/** Route notifications.main (product §2): every notification of the user, paged, seen or unseen. */
export function NotificationsPage({ chain, params }: PageProps) {
  const { t } = useTranslation('notifications');
  const typeLabel = useTypeLabel();
  const { user, brand } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const query = useNotificationsPage(page, PAGE_SIZE);

  // Without the header (mobile mode) the page still shows pushed notifications.
  useChannel(notificationsChannel(user.id), 'WebNotificationCreated', () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.pages() });
  });

  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  const unseenHere = rows.filter((n) => n.seen_at === null).map((n) => n.id);

  const goTo = (next: number) =>
    setSearch(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next <= 1) copy.delete('page');
        else copy.set('page', String(next));
        return copy;
      },
      { replace: false },
    );

  const columns: Column<WebNotification>[] = [
    { key: 'time', header: t('page.time'), width: 180, render: (n) => formatTime(n.created_at) },
    { key: 'type', header: t('page.type'), width: 160, render: (n) => typeLabel(n.type) },
    {
      key: 'summary',
      header: t('page.summary'),
      render: (notification) => {
        const buyLink = buyLinkFor(notification, brand, user);
        return (
          <>
            <Text
              size="sm"
              fw={notification.seen_at === null ? 600 : 400}
              style={{ overflowWrap: 'anywhere' }}
            >
              {notification.summary}
            </Text>
            {buyLink && (
              <Anchor href={buyLink} target="_blank" rel="noopener noreferrer" size="sm">
                <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                  {t('getMoreResources')}
                  <IconExternalLink size={14} aria-hidden />
                </span>
              </Anchor>
            )}
          </>
        );
      },
    },
    {
      key: 'state',
      header: t('page.state'),
      width: 220,
      render: (notification) =>
        notification.seen_at === null ? (
          <Badge color="blue" variant="filled" data-testid="notification-state">
            {t('unseen')}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed" data-testid="notification-state">
            {t('page.seenAt', { time: formatTime(notification.seen_at) })}
          </Text>
        ),
    },
  ];

  const markPageSeen = useAction({
    call: (ids: number[]) => markSeen(ids),
    failure: { verb: 'update', item: 'notifications' },
    // The button stays busy until the page (and the bell) show them seen.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Button
          variant="light"
          leftSection={<IconChecks size={16} />}
          disabled={unseenHere.length === 0}
          loading={markPageSeen.pending}
          onClick={() => void markPageSeen.run(unseenHere)}
          data-testid="notifications-mark-page"
        >
          {t('page.markSeen')}
        </Button>
      }
    >
      {query.isError ? (
        <Alert color="red" role="alert" data-testid="notifications-page-error">
          {loadFailureMessage(query.error, t('loadFailed'))}
        </Alert>
      ) : query.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="notifications-page-empty">
          {t('empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" data-testid="notifications-page-counts">
            {t('page.counts', { count: total, unseen: query.data?.unseen ?? 0 })}
          </Text>
          <PagedTable
            columns={columns}
            rows={rows}
            total={total}
            loading={false}
            page={page}
            pageSize={PAGE_SIZE}
            onPage={goTo}
            label={t('title')}
            empty={t('empty')}
            testId="notifications-table"
            minWidth={640}
            rowProps={(notification) => ({
              'data-testid': 'notification-row',
              ...(notification.seen_at === null ? { 'data-unseen': 'true' } : {}),
            })}
          />
        </>
      )}
    </PageFrame>
  );
}
