import { MAIL_STATUSES, type MailLogRow, type MailStatus } from '@fleetgate/shared/schemas/mail';
import { Badge, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '#src/components/page/PageFrame';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { useMailLogs } from './api/mail';
import { STATUS_COLORS } from './components/MailMessageView';
import { openMailMessage } from './dialogs';

const PAGE_SIZE = 25;

/**
 * mail.logs (product §2, view_mail_logs): every message the system sent or tried to send,
 * newest first. A super admin opens a message to read its text (invitation links when
 * no SMTP is configured).
 */
export function MailLogsPage({ chain, params }: PageProps) {
  const { t } = useTranslation('mail');
  const { can } = useSession();
  const list = useListState({ defaultSort: '-created_at', pageSize: PAGE_SIZE });
  const [status, setStatus] = useState<MailStatus | null>(null);
  const logs = useMailLogs({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    status: status ?? undefined,
  });
  const readable = can('super_admin');

  const columns: Column<MailLogRow>[] = [
    { key: 'to', header: t('column.to'), sortKey: 'to', render: (row) => <Text size="sm">{row.to}</Text> },
    {
      key: 'subject',
      header: t('column.subject'),
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" data-testid="mail-subject">
            {row.subject}
          </Text>
          <Text size="xs" c="dimmed">
            {row.template}
            {row.company_name ? ` · ${row.company_name}` : ''}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t('column.status'),
      sortKey: 'status',
      render: (row) => (
        <Tooltip label={row.error} disabled={!row.error} multiline maw={360}>
          <Badge color={STATUS_COLORS[row.status]} variant="light" data-testid="mail-status">
            {t(`status.${row.status}`)}
          </Badge>
        </Tooltip>
      ),
    },
    {
      key: 'error',
      header: t('column.error'),
      render: (row) => (
        <Text size="xs" c="dimmed" lineClamp={2} maw={260}>
          {row.error ?? ''}
        </Text>
      ),
    },
    {
      key: 'created',
      header: t('column.created'),
      sortKey: 'created_at',
      render: (row) => <Text size="sm">{formatTime(row.created_at)}</Text>,
    },
    {
      key: 'sent',
      header: t('column.sent'),
      sortKey: 'sent_at',
      render: (row) => <Text size="sm">{formatTime(row.sent_at)}</Text>,
    },
    ...(readable
      ? [
          {
            key: 'open',
            header: '',
            width: 48,
            render: (row: MailLogRow) => (
              <RowAction label={t('action.open')} onClick={() => openMailMessage(row.id, row.subject)}>
                <IconMailOpened size={16} />
              </RowAction>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageFrame chain={chain} params={params}>
      <Stack gap="sm">
        <Group gap="xs">
          <ListSearch
            list={list}
            label={t('search.label')}
            placeholder={t('search.placeholder')}
            w={320}
            testId="mail-search"
          />
          <Select
            aria-label={t('filter.status')}
            placeholder={t('filter.all')}
            data={MAIL_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            value={status}
            onChange={(value) => {
              setStatus(value as MailStatus | null);
              list.setPage(1);
            }}
            clearable
            w={170}
          />
        </Group>
        <PagedTable
          columns={columns}
          {...pageQueryProps(logs, 'mail log')}
          list={list}
          label={t('table.label')}
          empty={t('table.empty')}
          testId="mail-log-table"
          minWidth={900}
        />
      </Stack>
    </PageFrame>
  );
}
