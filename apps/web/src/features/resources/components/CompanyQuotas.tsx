import { Alert, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconAdjustments, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { RowAction } from '#src/components/table/RowAction';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { type QuotaJson, RESOURCE_CHANGE_KEYS, resourceActions, useQuotas } from '../api/resources';

type Company = { id: number; name: string };

async function openQuotaForm(company: Company, quota?: QuotaJson) {
  const { setQuotaForm } = await import('../forms/resource-forms');
  await openForm(await setQuotaForm({ company, ...(quota ? { quota } : {}) }));
}

/**
 * The quotas a parent set on a company: per type, how much the company's own users may pass on
 * (down its tree or into codes), how much they did and what is left. A parent company's
 * resource managers set, change and remove them; the company itself only reads them. Nothing
 * shows to the company's own users while it has none.
 */
export function CompanyQuotas({ company }: { company: Company }) {
  const { t } = useTranslation('resources');
  const { can, user } = useSession();
  const windows = useWindows();
  const quotas = useQuotas(company.id);
  const settable = can('manage_credits') && company.id !== user.company_id;
  const removal = useAction({
    call: (quota: QuotaJson) => resourceActions.removeQuota(company.id, quota),
    failure: { verb: 'remove', item: 'quota' },
    invalidate: RESOURCE_CHANGE_KEYS,
    success: t('quota.removed'),
    ownWords: true,
  });

  async function remove(quota: QuotaJson) {
    const yes = await windows.confirm({
      title: t('quota.removeTitle'),
      message: t('quota.removeMessage', { type: quota.credit_type_name, company: company.name }),
      confirmLabel: t('quota.remove'),
      danger: true,
      id: `quota-remove:${company.id}:${quota.credit_type}`,
    });
    if (yes) await removal.run(quota);
  }

  const rows = quotas.data ?? [];
  if (!settable && quotas.isSuccess && rows.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="company-quotas">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: 1, minWidth: 220 }}>
            <Title order={3} size="h5">
              {t('quota.heading')}
            </Title>
            <Text size="sm" c="dimmed">
              {settable ? t('quota.introParent') : t('quota.introOwn')}
            </Text>
          </Stack>
          {settable && (
            <Button
              variant="default"
              leftSection={<IconAdjustments size={16} />}
              onClick={() => void openQuotaForm(company)}
              data-testid="quota-set"
            >
              {t('quota.title')}
            </Button>
          )}
        </Group>
        {quotas.isError ? (
          <Alert color="red" role="alert">
            {failureMessage(quotas.error, 'get', 'quotas')}
          </Alert>
        ) : quotas.isPending ? (
          <Skeleton height={60} />
        ) : rows.length === 0 ? (
          <Text size="sm" data-testid="quotas-empty">
            {t('quota.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table striped aria-label={t('quota.heading')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('column.type')}</Table.Th>
                  <Table.Th ta="right">{t('quota.cap')}</Table.Th>
                  <Table.Th ta="right">{t('quota.moved')}</Table.Th>
                  <Table.Th ta="right">{t('quota.left')}</Table.Th>
                  {settable && <Table.Th w={90}>{t('column.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((quota) => (
                  <Table.Tr
                    key={quota.credit_type}
                    data-testid="quota-row"
                    data-credit-type={quota.credit_type}
                  >
                    <Table.Td>{quota.credit_type_name}</Table.Td>
                    <Table.Td ta="right">{quota.cap.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{quota.moved.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right" fw={600} data-testid="quota-left">
                      {quota.left.toLocaleString('en-US')}
                    </Table.Td>
                    {settable && (
                      <Table.Td>
                        <Group gap={2} wrap="nowrap">
                          <RowAction
                            label={t('quota.change')}
                            onClick={() => void openQuotaForm(company, quota)}
                            testId="quota-change"
                          >
                            <IconPencil size={16} />
                          </RowAction>
                          <RowAction
                            label={t('quota.remove')}
                            color="red"
                            onClick={() => void remove(quota)}
                            testId="quota-remove"
                          >
                            <IconTrash size={16} />
                          </RowAction>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
