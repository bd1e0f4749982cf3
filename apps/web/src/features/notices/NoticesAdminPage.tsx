import { TIME_FORMAT } from '@fleetgate/shared/constants';
import type { AdminNotice } from '@fleetgate/shared/schemas/notices';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBraces,
  IconClockPlay,
  IconExternalLink,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../app/layout/PageFrame';
import type { PageProps } from '../../app/router/RouteScreen';
import { openForm } from '../../components/forms/open-form';
import { RichText } from '../../components/forms/RichText';
import { EmptyRow } from '../../components/table/EmptyRow';
import { useWindows } from '../../lib/dialogs/use-windows';
import { failureMessage, successToast } from '../../lib/http/results';
import { noticeActions, noticeKeys, useAdminNotices } from './api/notices';
import { NoticeTypeBadge } from './components/NoticeTypeBadge';
import { noticeEnableForm, noticeForm } from './forms/notice-form';

const PAGE_SIZE = 25;

/** The first words of a notice's text (its HTML without tags), to name it in a question. */
function excerptOf(html: string): string {
  const text = (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').trim();
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
const STATUS_COLORS = { enabled: 'green', scheduled: 'yellow', disabled: 'gray' } as const;

/** The administration of global notices (route notices.global, permission admin_view_notice). */
export function NoticesAdminPage({ chain, params }: PageProps) {
  const { t } = useTranslation('notices');
  const windows = useWindows();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useAdminNotices(page, PAGE_SIZE);

  async function act(run: () => Promise<{ message?: string }>, verb: 'remove' | 'enable' | 'disable') {
    try {
      const response = await run();
      notifications.show({ color: 'green', message: successToast(response.message, t(`result.${verb}`)) });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, verb, 'notice') });
    } finally {
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
    }
  }

  async function remove(notice: AdminNotice) {
    const yes = await windows.confirm({
      title: t('delete.title'),
      message: t('delete.message', { type: t(`type.${notice.type}`), excerpt: excerptOf(notice.message) }),
      confirmLabel: t('delete.confirm'),
      danger: true,
      id: `notice-delete:${notice.id}`,
    });
    if (yes) await act(() => noticeActions.remove(notice.id), 'remove');
  }

  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Group gap="xs">
          <Tooltip label={t('action.createOnPage')}>
            <ActionIcon
              component={Link}
              to="/forms/notice"
              variant="default"
              size="lg"
              aria-label={t('action.createOnPage')}
            >
              <IconExternalLink size={18} />
            </ActionIcon>
          </Tooltip>
          <Button leftSection={<IconPlus size={16} />} onClick={() => void openForm(noticeForm)}>
            {t('action.create')}
          </Button>
        </Group>
      }
    >
      <Stack>
        {list.isError && (
          <Alert color="red" role="alert">
            {failureMessage(list.error, 'get', 'notices')}
          </Alert>
        )}
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="notices-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('column.type')}</Table.Th>
                <Table.Th>{t('column.message')}</Table.Th>
                <Table.Th>{t('column.status')}</Table.Th>
                <Table.Th>{t('column.updated')}</Table.Th>
                <Table.Th w={220}>{t('column.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && !list.isPending && <EmptyRow colSpan={5}>{t('admin.empty')}</EmptyRow>}
              {rows.map((notice) => (
                <Table.Tr key={notice.id} data-testid="notice-row" data-notice-id={notice.id}>
                  <Table.Td>
                    <NoticeTypeBadge type={notice.type} />
                  </Table.Td>
                  <Table.Td maw={380}>
                    <RichText
                      html={notice.message}
                      fz="sm"
                      style={{
                        display: '-webkit-box',
                        WebkitLineClamp: 3,
                        WebkitBoxOrient: 'vertical',
                        overflow: 'hidden',
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Badge color={STATUS_COLORS[notice.status]} variant="dot" data-testid="notice-status">
                        {t(`status.${notice.status}`)}
                      </Badge>
                      {notice.enabled_at && (
                        <Text size="xs" c="dimmed">
                          {dayjs(notice.enabled_at).format(TIME_FORMAT)}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{dayjs(notice.updated_at).format(TIME_FORMAT)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <RowAction
                        label={t('action.edit')}
                        onClick={() => void openForm(noticeForm, { id: notice.id })}
                      >
                        <IconPencil size={16} />
                      </RowAction>
                      <Tooltip label={t('action.editOnPage')}>
                        <ActionIcon
                          component={Link}
                          to={`/forms/notice/${notice.id}`}
                          variant="subtle"
                          aria-label={t('action.editOnPage')}
                        >
                          <IconExternalLink size={16} />
                        </ActionIcon>
                      </Tooltip>
                      {notice.status === 'disabled' ? (
                        <RowAction
                          label={t('action.enableNow')}
                          onClick={() => void act(() => noticeActions.enable(notice.id), 'enable')}
                        >
                          <IconPlayerPlay size={16} />
                        </RowAction>
                      ) : (
                        <RowAction
                          label={t('action.disable')}
                          onClick={() => void act(() => noticeActions.disable(notice.id), 'disable')}
                        >
                          <IconPlayerPause size={16} />
                        </RowAction>
                      )}
                      <RowAction
                        label={t('action.enableAt')}
                        onClick={() => void openForm(noticeEnableForm, { id: notice.id })}
                      >
                        <IconClockPlay size={16} />
                      </RowAction>
                      <RowAction
                        label={t('action.json')}
                        onClick={() =>
                          windows.openNamed(
                            'jsonViewer',
                            { value: notice, title: i18next.t('notices:json.title', { id: notice.id }) },
                            { id: `notice-json:${notice.id}` },
                          )
                        }
                      >
                        <IconBraces size={16} />
                      </RowAction>
                      <RowAction label={t('action.delete')} color="red" onClick={() => void remove(notice)}>
                        <IconTrash size={16} />
                      </RowAction>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > PAGE_SIZE && (
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
        )}
      </Stack>
    </PageFrame>
  );
}

function RowAction({
  label,
  onClick,
  color,
  children,
}: {
  label: string;
  onClick(): void;
  color?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
