import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import type { ImpersonationLog } from '@fleetgate/shared/schemas/impersonation';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '#src/components/page/PageFrame';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useWindows } from '#src/lib/dialogs/use-windows';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { useImpersonationLogs } from './api/impersonation';
import { ImpersonateDialog } from './components/ImpersonateDialog';

const PAGE_SIZE = 25;

/** users.impersonation-logs (product §2, view_impersonation_logs): actor, subject, start, end. */
export function ImpersonationLogsPage({ chain, params }: PageProps) {
  const { t } = useTranslation('impersonation');
  const { user, can } = useSession();
  const windows = useWindows();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const logs = useImpersonationLogs(page, PAGE_SIZE, debounced);
  const columns: Column<ImpersonationLog>[] = [
    { key: 'actor', header: t('logs.actor'), render: (row) => row.actor_email },
    { key: 'subject', header: t('logs.subject'), render: (row) => row.subject_email },
    {
      key: 'company',
      header: t('logs.company'),
      render: (row) => (
        <>
          {row.subject_company_name ?? '—'}
          {row.subject_company_id !== null && (
            <Text span c="dimmed" size="sm">
              {' '}
              #{row.subject_company_id}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'start',
      header: t('logs.start'),
      render: (row) => (row.started_at ? formatTime(row.started_at) : '—'),
    },
    {
      key: 'end',
      header: t('logs.end'),
      render: (row) =>
        row.ended_at ? (
          formatTime(row.ended_at)
        ) : (
          <Badge color="orange" variant="light" data-testid="log-active">
            {t('logs.active')}
          </Badge>
        ),
    },
  ];

  const openDialog = () =>
    windows.open(ImpersonateDialog, {}, { id: 'impersonate-user', title: t('dialog.title'), size: 'lg' });

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        can('impersonate_users') && !user.isImpersonating ? (
          <Button
            leftSection={<IconUserCheck size={16} />}
            onClick={openDialog}
            data-testid="open-impersonate"
          >
            {t('dialog.open')}
          </Button>
        ) : undefined
      }
    >
      <Stack>
        <ListSearch
          list={{
            input: q,
            setInput: (value) => {
              setQ(value);
              setPage(1);
            },
          }}
          label={t('logs.search')}
          maw={360}
        />
        <PagedTable
          columns={columns}
          {...pageQueryProps(logs, 'impersonation logs')}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          label={t('routes:users.impersonation-logs')}
          empty={t('logs.empty')}
          testId="impersonation-logs"
          rowProps={() => ({ 'data-testid': 'impersonation-log-row' })}
        />
      </Stack>
    </PageFrame>
  );
}
