import { Alert, Badge, Group, ScrollArea, Stack, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportResult, summarize } from '../utils/import-rows';

const STATUS_COLORS = { approved: 'green', notSent: 'gray' } as const;

/**
 * What an import did, row by row: the file's row, the serial, and 'Approved' or the
 * server's reason. Rows that failed or were never sent stay listed, so the operator can fix
 * the file and import it again.
 */
export function ImportResults({ results, running }: { results: readonly ImportResult[]; running: boolean }) {
  const { t } = useTranslation('approved-devices');
  const [onlyFailed, setOnlyFailed] = useState(false);
  const counts = summarize(results);
  const unfinished = counts.failed + counts.notSent;
  const shown = onlyFailed ? results.filter((r) => r.status !== 'approved') : results;

  return (
    <Stack gap="xs" data-testid="import-results">
      {!running && (
        <Alert
          color={unfinished === 0 ? 'green' : 'orange'}
          variant="light"
          data-testid="import-summary"
          title={t('import.summary', { approved: counts.approved, total: counts.total })}
        >
          {unfinished === 0
            ? t('import.allApproved')
            : [
                counts.failed ? t('import.failedCount', { failed: counts.failed }) : '',
                counts.notSent ? t('import.notSentCount', { notSent: counts.notSent }) : '',
                t('import.fixHint'),
              ]
                .filter(Boolean)
                .join(' ')}
        </Alert>
      )}
      {unfinished > 0 && (
        <Group justify="flex-end">
          <Switch
            size="sm"
            label={t('import.onlyFailed')}
            checked={onlyFailed}
            onChange={(event) => setOnlyFailed(event.currentTarget.checked)}
            data-testid="import-only-failed"
          />
        </Group>
      )}
      <ScrollArea.Autosize mah={320} type="auto">
        <Table verticalSpacing={4} aria-label={t('import.resultsLabel')} miw={420}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={64}>{t('import.row')}</Table.Th>
              <Table.Th>{t('import.serial')}</Table.Th>
              <Table.Th>{t('import.result')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r) => (
              <Table.Tr key={r.line} data-testid="import-result" data-status={r.status} data-line={r.line}>
                <Table.Td>{r.line}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {r.serial || '-'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {r.status === 'failed' ? (
                    <Text size="sm" c="red" data-testid="import-result-message">
                      {r.message}
                    </Text>
                  ) : (
                    <Badge color={STATUS_COLORS[r.status]} variant="light">
                      {t(`import.status.${r.status}`)}
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
