import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import { Alert, Badge, Button, Group, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../app/layout/PageFrame';
import type { PageProps } from '../../app/router/RouteScreen';
import { useSession } from '../../app/session/session-context';
import { EmptyRow } from '../../components/table/EmptyRow';
import { useWindows } from '../../lib/dialogs/use-windows';
import { failureMessage } from '../../lib/http/results';
import { formatTime } from '../../lib/time';
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
  const rows = logs.data?.rows ?? [];
  const total = logs.data?.total ?? 0;

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
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('logs.search')}
          aria-label={t('logs.search')}
          value={q}
          onChange={(event) => {
            setQ(event.currentTarget.value);
            setPage(1);
          }}
          maw={360}
        />
        {logs.isError && <Alert color="red">{failureMessage(logs.error, 'get', 'impersonation logs')}</Alert>}
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="impersonation-logs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('logs.actor')}</Table.Th>
                <Table.Th>{t('logs.subject')}</Table.Th>
                <Table.Th>{t('logs.company')}</Table.Th>
                <Table.Th>{t('logs.start')}</Table.Th>
                <Table.Th>{t('logs.end')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && !logs.isPending && <EmptyRow colSpan={5}>{t('logs.empty')}</EmptyRow>}
              {rows.map((row) => (
                <Table.Tr key={row.id} data-testid="impersonation-log-row">
                  <Table.Td>{row.actor_email}</Table.Td>
                  <Table.Td>{row.subject_email}</Table.Td>
                  <Table.Td>
                    {row.subject_company_name ?? '—'}
                    {row.subject_company_id !== null && (
                      <Text span c="dimmed" size="sm">
                        {' '}
                        #{row.subject_company_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{row.started_at ? formatTime(row.started_at) : '—'}</Table.Td>
                  <Table.Td>
                    {row.ended_at ? (
                      formatTime(row.ended_at)
                    ) : (
                      <Badge color="orange" variant="light" data-testid="log-active">
                        {t('logs.active')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > PAGE_SIZE && (
          <Group justify="flex-end">
            <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
          </Group>
        )}
      </Stack>
    </PageFrame>
  );
}
