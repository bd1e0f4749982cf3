import type { SuppressedEmail } from '@fleetgate/shared/schemas/mail';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconMailOff, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { successMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import { mailActions, mailKeys, useSuppressed } from '../api/mail';
import { suppressEmailForm } from '../forms/mail-forms';

const PAGE_SIZE = 10;

/** The suppression list: addresses nothing is sent to (product §3 removeFromSuppresionList). */
export function SuppressionList() {
  const { t } = useTranslation('mail');
  const windows = useWindows();
  const removal = useAction({
    call: (row: SuppressedEmail) => mailActions.unsuppress(row.email),
    failure: { verb: 'remove', item: 'address' },
    invalidate: [mailKeys.all],
    success: successMessage(t('result.suppressedAddress'), t('result.removed'), (parts) =>
      t('forms:result.success', parts),
    ),
  });
  const list = useListState({ defaultSort: '-created_at', pageSize: PAGE_SIZE });
  const rows = useSuppressed({ q: list.q, sort: list.sort, limit: list.limit, offset: list.offset });

  /** Asks first, naming the address and what goes with it (product §4 destructive actions). */
  async function remove(row: SuppressedEmail) {
    const yes = await windows.confirm({
      title: t('suppressed.removeTitleFor', { id: row.email }),
      message: t('suppressed.removeConfirm', { email: row.email, reason: row.reason }),
      confirmLabel: t('suppressed.removeSubmit'),
      danger: true,
      id: `suppressed-remove:${row.email}`,
    });
    if (!yes) return;
    await removal.run(row);
  }
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
        <RowAction label={t('suppressed.remove')} color="red" onClick={() => void remove(row)}>
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
