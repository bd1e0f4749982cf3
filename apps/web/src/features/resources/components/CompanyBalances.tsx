import { formatData } from '@fleetgate/shared/resources';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconDatabasePlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { failureMessage } from '#src/lib/http/results';
import { useSession } from '#src/lib/session/session-context';
import { useCompanyBalances } from '../api/resources';

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * A company's balances (GET /companies/{id}/resources; product §3 Company credits_left,
 * packs_left, remaining_data) with every type it holds, and 'Buy data' (product §3 buyData)
 * for holders of manage_credits.
 */
export function CompanyBalances({ company }: { company: { id: number; name: string } }) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const balances = useCompanyBalances(company.id);
  const b = balances.data;
  const buy = can('manage_credits') && (
    <Button
      variant="light"
      leftSection={<IconDatabasePlus size={16} />}
      onClick={async () => {
        const { buyDataForm } = await import('../forms/resource-forms');
        await openForm(await buyDataForm({ company }));
      }}
      data-testid="buy-data"
    >
      {t('buyData.title')}
    </Button>
  );

  if (balances.isError)
    return (
      <Alert color="red" role="alert" data-testid="company-balances-error">
        {failureMessage(balances.error, 'get', 'company resources')}
      </Alert>
    );
  return (
    <Paper withBorder p="md" data-testid="company-balances">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <SimpleGrid cols={3} spacing="md" miw={260} style={{ flex: 1 }}>
            {b ? (
              <>
                <Figure
                  label={t('balance.credits')}
                  value={b.credits_left.toLocaleString('en-US')}
                  testId="balance-credits"
                />
                <Figure
                  label={t('balance.packs')}
                  value={b.packs_left.toLocaleString('en-US')}
                  testId="balance-packs"
                />
                <Figure
                  label={t('balance.data')}
                  value={formatData(b.remaining_data)}
                  testId="balance-data"
                />
              </>
            ) : (
              [0, 1, 2].map((i) => <Skeleton key={i} height={44} />)
            )}
          </SimpleGrid>
          {buy}
        </Group>
        {b && b.per_type.length > 0 && (
          <Group gap={6} data-testid="balance-types">
            {b.per_type.map((entry) => (
              <Badge
                key={entry.credit_type}
                variant="light"
                color="gray"
                tt="none"
                data-credit-type={entry.credit_type}
              >
                {entry.credit_type_name}: {entry.left.toLocaleString('en-US')}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
