import { notificationsChannel } from '@fleetgate/shared/events';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  Table,
  Text,
} from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconChecks, IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageFrame } from '../../app/layout/PageFrame';
import type { PageProps } from '../../app/router/RouteScreen';
import { useSession } from '../../app/session/session-context';
import { failureMessage } from '../../lib/http/results';
import { useChannel } from '../../lib/socket/useChannel';
import { formatTime } from '../../lib/time';
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
  const [marking, setMarking] = useState(false);

  // Without the header (mobile mode) the page still shows pushed notifications.
  useChannel(notificationsChannel(user.id), 'WebNotificationCreated', () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.pages() });
  });

  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
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

  const markPageSeen = async () => {
    setMarking(true);
    try {
      await markSeen(unseenHere);
      await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    } catch (error) {
      toasts.show({ color: 'red', message: failureMessage(error, 'update', 'notifications') });
    } finally {
      setMarking(false);
    }
  };

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Button
          variant="light"
          leftSection={<IconChecks size={16} />}
          disabled={unseenHere.length === 0}
          loading={marking}
          onClick={markPageSeen}
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
          <Paper withBorder>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover data-testid="notifications-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={180}>{t('page.time')}</Table.Th>
                    <Table.Th w={160}>{t('page.type')}</Table.Th>
                    <Table.Th>{t('page.summary')}</Table.Th>
                    <Table.Th w={220}>{t('page.state')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((notification) => {
                    const buyLink = buyLinkFor(notification, brand, user);
                    const unseen = notification.seen_at === null;
                    return (
                      <Table.Tr
                        key={notification.id}
                        data-testid="notification-row"
                        data-unseen={unseen || undefined}
                      >
                        <Table.Td>{formatTime(notification.created_at)}</Table.Td>
                        <Table.Td>{typeLabel(notification.type)}</Table.Td>
                        <Table.Td>
                          <Text size="sm" fw={unseen ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
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
                        </Table.Td>
                        <Table.Td>
                          {unseen ? (
                            <Badge color="blue" variant="filled" data-testid="notification-state">
                              {t('unseen')}
                            </Badge>
                          ) : (
                            <Text size="sm" c="dimmed" data-testid="notification-state">
                              {t('page.seenAt', { time: formatTime(notification.seen_at) })}
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          {pages > 1 && (
            <Group justify="center" mt="md">
              <Pagination total={pages} value={Math.min(page, pages)} onChange={goTo} />
            </Group>
          )}
        </>
      )}
    </PageFrame>
  );
}
