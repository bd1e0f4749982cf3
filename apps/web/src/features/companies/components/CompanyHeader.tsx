import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Badge, Group, Paper, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Fact } from '#src/components/page/Fact';
import { useSession } from '#src/lib/session/session-context';
import type { Company } from '../api/companies';

/** The company page header (product §2 company.info): level, parent, counts and flags. */
export function CompanyHeader({ company }: { company: Company }) {
  const { t } = useTranslation('companies');
  const { user } = useSession();
  // The caller's own parent is outside its reach: named, not linked.
  const parentReachable = company.parent_id !== null && company.id !== user.company_id;
  return (
    <Paper withBorder p="md" data-testid="company-header">
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md">
        <Fact label={t('header.id')}>#{company.id}</Fact>
        <Fact label={t('header.level')} testId="company-level">
          {company.level}
        </Fact>
        <Fact label={t('header.parent')} testId="company-parent">
          {company.parent_id === null ? (
            t('header.noParent')
          ) : parentReachable ? (
            <Anchor component={Link} to={pathOf('company.info', { company_id: company.parent_id })}>
              {company.parent_name}
            </Anchor>
          ) : (
            company.parent_name
          )}
        </Fact>
        <Fact label={t('header.users')} testId="company-users-count">
          {company.users_count}
        </Fact>
        <Fact label={t('header.devices')}>{company.devices_count}</Fact>
        <Fact label={t('header.flags')} testId="company-flags">
          <Group gap={4}>
            <Badge size="sm" variant="light" tt="none" color={company.mfa_mandatory ? 'grape' : 'gray'}>
              {company.mfa_mandatory ? t('flag.mfaOn') : t('flag.mfaOff')}
            </Badge>
            <Badge size="sm" variant="light" tt="none" color={company.show_payment ? 'teal' : 'gray'}>
              {company.show_payment ? t('flag.paymentOn') : t('flag.paymentOff')}
            </Badge>
            <Badge
              size="sm"
              variant="light"
              tt="none"
              color={company.payment_type === 'free' ? 'orange' : 'gray'}
              data-testid="company-payment-type"
            >
              {t(`paymentType.${company.payment_type}`)}
            </Badge>
          </Group>
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}
