import type { UserMoveLog } from '@fleetgate/shared/schemas/users';
import { Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowRight, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/http/results';
import { formatTime } from '../../../lib/time';
import { useMoveLogs } from '../api/users';
import { useListState } from '../hooks/use-list-state';
import { type Column, PagedTable } from './PagedTable';

const PAGE_SIZE = 25;

const companyText = (name: string | null, id: number | null) => (id === null ? '-' : `${name ?? ''} #${id}`);

/** users.move-logs (spec §2): who was moved from which company to which, by whom, when. */
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
      <TextInput
        aria-label={t('search.label')}
        placeholder={t('search.movePlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={list.input}
        onChange={(e) => list.setInput(e.currentTarget.value)}
        w={320}
      />
      <PagedTable
        columns={columns}
        rows={logs.data?.rows}
        total={logs.data?.total ?? 0}
        loading={logs.isPending}
        error={logs.isError ? failureMessage(logs.error, 'get', 'move logs') : null}
        page={list.page}
        pageSize={PAGE_SIZE}
        onPage={list.setPage}
        sort={list.sort}
        onSort={list.toggleSort}
        label={t('table.moveLogs')}
        empty={t('table.noMoveLogs')}
        testId="move-logs-table"
      />
    </Stack>
  );
}
