import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import type { ImpersonationCandidate } from '@fleetgate/shared/schemas/impersonation';
import { Alert, Badge, Button, Group, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleTitle } from '../../../i18n/role-titles';
import { failureMessage, successToast } from '../../../lib/http/results';
import { formatTime } from '../../../lib/time';
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
  const [busy, setBusy] = useState<number | null>(null);

  async function impersonate(candidate: ImpersonationCandidate) {
    setBusy(candidate.id);
    try {
      await startImpersonation(candidate.id);
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'start', 'impersonation') });
      setBusy(null);
    }
  }

  async function request(candidate: ImpersonationCandidate) {
    setBusy(candidate.id);
    try {
      const response = await impersonationActions.request(candidate.id);
      notifications.show({ color: 'green', message: successToast(response.message, t('request.sent')) });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'send', 'request') });
    } finally {
      setBusy(null);
    }
  }

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
                      <Button size="compact-sm" loading={busy === c.id} onClick={() => void impersonate(c)}>
                        {t('start.button')}
                      </Button>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="default"
                        loading={busy === c.id}
                        onClick={() => void request(c)}
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
