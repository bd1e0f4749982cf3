import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import type { ImpersonationCandidate } from '@fleetgate/shared/schemas/impersonation';
import { Alert, Badge, Button, Group, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleTitle } from '#src/i18n/role-titles';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import { impersonationActions, useCandidates } from '../api/impersonation';
import { startImpersonation } from '../start';

/**
 * 'Impersonate user' window of the impersonation logs page: the users below the caller's
 * company, those who granted access first; impersonate them, or ask the others by e-mail.
 */
export function ImpersonateDialog() {
  const { t } = useTranslation('impersonation');
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const candidates = useCandidates(debounced, true);
  // The page is left for the user's console: the row's button spins until it is gone.
  const [leaving, setLeaving] = useState<number | null>(null);
  const impersonate = useAction({
    call: (candidate: ImpersonationCandidate) => startImpersonation(candidate.id),
    failure: { verb: 'start', item: 'impersonation' },
    onSuccess: (_result, candidate) => setLeaving(candidate.id),
  });
  const request = useAction({
    call: (candidate: ImpersonationCandidate) => impersonationActions.request(candidate.id),
    failure: { verb: 'send', item: 'request' },
    success: t('request.sent'),
  });
  const busy =
    leaving ??
    (impersonate.pending ? impersonate.variables?.id : request.pending ? request.variables?.id : null);

  const rows = candidates.data ?? [];
  return (
    <Stack data-testid="impersonate-dialog">
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('dialog.search')}
        value={q}
        onChange={(event) => setQ(event.currentTarget.value)}
        data-autofocus
        aria-label={t('dialog.search')}
      />
      {candidates.isError && <Alert color="red">{failureMessage(candidates.error, 'get', 'users')}</Alert>}
      <ScrollArea.Autosize mah={420}>
        <Table verticalSpacing="xs">
          <Table.Tbody>
            {rows.length === 0 && !candidates.isPending && (
              <Table.Tr>
                <Table.Td>
                  <Text c="dimmed" size="sm" ta="center" py="md">
                    {t('dialog.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((c) => (
              <Table.Tr key={c.id} data-testid="candidate-row" data-email={c.email}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {c.email}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {c.company_name} #{c.company_id} · {roleTitle(c.role_title)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {c.granted_until ? (
                    <Badge color="green" variant="light" size="sm">
                      {t('dialog.grantedUntil', { time: formatTime(c.granted_until) })}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light" size="sm">
                      {t('dialog.notGranted')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    {c.granted_until ? (
                      <Button
                        size="compact-sm"
                        loading={busy === c.id}
                        onClick={() => void impersonate.run(c)}
                      >
                        {t('start.button')}
                      </Button>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="default"
                        loading={busy === c.id}
                        onClick={() => void request.run(c)}
                      >
                        {t('request.button')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
