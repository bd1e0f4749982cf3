import { TIME_FORMAT } from '@fleetgate/shared/constants';
import type { AdminNotice } from '@fleetgate/shared/schemas/notices';
import { ActionIcon, Badge, Box, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
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
import dayjs from 'dayjs';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openForm } from '#src/components/forms/open-form';
import { RichText } from '#src/components/forms/RichText';
import { PageFrame } from '#src/components/page/PageFrame';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
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
  const [page, setPage] = useState(1);
  const list = useAdminNotices(page, PAGE_SIZE);

  const act = useAction({
    call: ({
      verb,
      id,
    }: {
      verb: 'remove' | 'enable' | 'disable';
      id: number;
    }): Promise<{ message?: string }> => noticeActions[verb](id),
    failure: ({ verb }) => ({ verb, item: 'notice' }),
    invalidate: [noticeKeys.all],
    success: (_response, { verb }) => t(`result.${verb}`),
  });

  async function remove(notice: AdminNotice) {
    const yes = await windows.confirm({
      title: t('delete.title'),
      message: t('delete.message', { type: t(`type.${notice.type}`), excerpt: excerptOf(notice.message) }),
      confirmLabel: t('delete.confirm'),
      danger: true,
      id: `notice-delete:${notice.id}`,
    });
    if (yes) await act.run({ verb: 'remove', id: notice.id });
  }

  const columns: Column<AdminNotice>[] = [
    { key: 'type', header: t('column.type'), render: (notice) => <NoticeTypeBadge type={notice.type} /> },
    {
      key: 'message',
      header: t('column.message'),
      render: (notice) => (
        <Box maw={380}>
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
        </Box>
      ),
    },
    {
      key: 'status',
      header: t('column.status'),
      render: (notice) => (
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
      ),
    },
    {
      key: 'updated',
      header: t('column.updated'),
      render: (notice) => <Text size="sm">{dayjs(notice.updated_at).format(TIME_FORMAT)}</Text>,
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 220,
      render: (notice) => (
        <Group gap={4} wrap="nowrap">
          <RowAction label={t('action.edit')} onClick={() => void openForm(noticeForm, { id: notice.id })}>
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
              onClick={() => void act.run({ verb: 'enable', id: notice.id })}
            >
              <IconPlayerPlay size={16} />
            </RowAction>
          ) : (
            <RowAction
              label={t('action.disable')}
              onClick={() => void act.run({ verb: 'disable', id: notice.id })}
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
      ),
    },
  ];

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
      <PagedTable
        columns={columns}
        {...pageQueryProps(list, 'notices')}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        label={t('title')}
        empty={t('admin.empty')}
        testId="notices-table"
        minWidth={760}
        rowProps={(notice) => ({ 'data-testid': 'notice-row', 'data-notice-id': notice.id })}
      />
    </PageFrame>
  );
}
