import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import { useSession } from '#src/lib/session/session-context';
import { useCompanyData, useCreditsSummary } from '../api/account-widget-queries';
import { formatBytes, loadsCompanyData } from '../utils';

/**
 * Resource summary of product §2 Header widgets 3: the company's remaining data and credits
 * left per type. Gating of product §6: view_credits_summary, not for company 0, company data
 * only with view_companies; the brand's showData flag is not part of the brand settings
 * (product §1 lists none), so it counts as on. Shows only what the server answered.
 */
export function ResourceSummary() {
  const { t } = useTranslation('account-widget');
  const { user, brand, can } = useSession();
  const allowed = can('view_credits_summary') && loadsCompanyData(user);
  const company = useCompanyData(user.company_id, allowed && can('view_companies'));
  const credits = useCreditsSummary(allowed);
  if (!allowed) return null;

  const remaining = company.data?.remaining_data;
  const counts = credits.data ?? [];
  const hasRemaining = typeof remaining === 'number';
  // A read that failed is said in the product §8 words, never left as an empty section.
  const failure = company.error ?? credits.error;
  if (!hasRemaining && counts.length === 0 && !failure) return null;
  // product §6: the buy link only for the default theme and when show_payment is set.
  const buyLink = brand.default && user.show_payment && brand.buy_link ? brand.buy_link : null;

  return (
    <Stack gap={4} px="sm" py="xs" data-testid="resource-summary">
      <Group gap={6} wrap="nowrap">
        <IconCoins size={16} />
        <Text size="xs" fw={600}>
          {t('resources.title')}
        </Text>
      </Group>
      {hasRemaining && (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs">{t('resources.remainingData')}</Text>
          <Text size="xs" fw={600} data-testid="resource-remaining-data">
            {formatBytes(remaining)}
          </Text>
        </Group>
      )}
      {failure && (
        <Text size="xs" c="red" role="alert" data-testid="resource-summary-error">
          {failureMessage(failure, 'get', 'resource summary')}
        </Text>
      )}
      {counts.map((count) => (
        <Group key={count.type} justify="space-between" gap="xs" wrap="nowrap" data-credit-type={count.type}>
          <Text size="xs" truncate="end">
            {count.name}
          </Text>
          <Text size="xs" fw={600}>
            {count.left}
          </Text>
        </Group>
      ))}
      {buyLink && (
        <Anchor href={buyLink} target="_blank" rel="noopener noreferrer" size="xs">
          {brand.buy_notice || t('resources.buy')}
        </Anchor>
      )}
    </Stack>
  );
}
