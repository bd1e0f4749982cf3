import type { SuppressedEmail } from '@fleetgate/shared/schemas/mail';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconMailOff, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '../../../components/forms/open-form';
import { ListSearch } from '../../../components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '../../../components/table/PagedTable';
import { RowAction } from '../../../components/table/RowAction';
import { useListState } from '../../../components/table/use-list-state';
import { formatTime } from '../../../lib/time';
import { useSuppressed } from '../api/mail';
import { removeFromSuppresionListForm, suppressEmailForm } from '../forms/mail-forms';

const PAGE_SIZE = 10;

/** The suppression list: addresses nothing is sent to (spec §3 removeFromSuppresionList). */
export function SuppressionList() {
  const { t } = useTranslation('mail');
  const list = useListState({ defaultSort: '-created_at', pageSize: PAGE_SIZE });
  const rows = useSuppressed({ q: list.q, sort: list.sort, limit: list.limit, offset: list.offset });
  const columns: Column<SuppressedEmail & { id: number }>[] = [
    {
      key: 'email',
      header: t('suppressed.email'),
      sortKey: 'email',
      render: (row) => <Text size="sm">{row.email}</Text>,
    },
    { key: 'reason', header: t('suppressed.reason'), render: (row) => <Text size="sm">{row.reason}</Text> },
    {
      key: 'since',
      header: t('suppressed.since'),
      sortKey: 'created_at',
      render: (row) => <Text size="sm">{formatTime(row.created_at)}</Text>,
    },
    {
      key: 'remove',
      header: '',
      width: 48,
      render: (row) => (
        <RowAction
          label={t('suppressed.remove')}
          color="red"
          onClick={() => void openForm(removeFromSuppresionListForm, { id: row.email })}
        >
          <IconTrash size={16} />
        </RowAction>
      ),
    },
  ];
  // The table keys rows by a number; an address's position on the page serves.
  const numbered = rows.data?.rows.map((row, index) => ({ ...row, id: list.offset + index + 1 }));
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>{t('suppressed.title')}</Title>
        <Button
          variant="default"
          leftSection={<IconMailOff size={16} />}
          onClick={() => void openForm(suppressEmailForm)}
        >
          {t('suppressed.add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('suppressed.intro')}
      </Text>
      <ListSearch list={list} label={t('suppressed.search')} w={320} />
      <PagedTable
        columns={columns}
        {...pageQueryProps(rows, 'suppressed addresses')}
        rows={numbered}
        list={list}
        label={t('suppressed.title')}
        empty={t('suppressed.empty')}
        testId="suppressed-table"
        minWidth={760}
      />
    </Stack>
  );
}
