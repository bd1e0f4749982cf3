import type { UserMoveLog } from '@fleetgate/shared/schemas/users';
import { Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useListState } from '#src/components/table/use-list-state';
import { formatTime } from '#src/lib/time';
import { useMoveLogs } from '../api/users';

const PAGE_SIZE = 25;

const companyText = (name: string | null, id: number | null) => (id === null ? '-' : `${name ?? ''} #${id}`);

/** users.move-logs (product §2): who was moved from which company to which, by whom, when. */
export function MoveLogsTable({ companyId }: { companyId?: number }) {
  const { t } = useTranslation('users');
  const list = useListState({ defaultSort: '-moved_at', pageSize: PAGE_SIZE });
  const logs = useMoveLogs({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    company_id: companyId,
  });
  const columns: Column<UserMoveLog>[] = [
    {
      key: 'user',
      header: t('column.user'),
      sortKey: 'user_email',
      render: (row) => <Text size="sm">{row.user_email}</Text>,
    },
    {
      key: 'move',
      header: t('column.movedFromTo'),
      render: (row) => (
        <Group gap={6} wrap="nowrap" data-testid="move-log-companies">
          <Text size="sm">{companyText(row.from_company_name, row.from_company_id)}</Text>
          <IconArrowRight size={14} aria-label={t('column.to')} />
          <Text size="sm">{companyText(row.to_company_name, row.to_company_id)}</Text>
        </Group>
      ),
    },
    { key: 'by', header: t('column.movedBy'), render: (row) => <Text size="sm">{row.moved_by ?? '-'}</Text> },
    {
      key: 'at',
      header: t('column.movedAt'),
      sortKey: 'moved_at',
      render: (row) => <Text size="sm">{formatTime(row.moved_at)}</Text>,
    },
  ];
  return (
    <Stack gap="sm">
      <ListSearch list={list} label={t('search.label')} placeholder={t('search.movePlaceholder')} w={320} />
      <PagedTable
        columns={columns}
        {...pageQueryProps(logs, 'move logs')}
        list={list}
        label={t('table.moveLogs')}
        empty={t('table.noMoveLogs')}
        testId="move-logs-table"
        minWidth={760}
      />
    </Stack>
  );
}
