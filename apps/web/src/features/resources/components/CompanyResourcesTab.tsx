import type { CompanyPaymentType } from '@fleetgate/shared/schemas/companies';
import { Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '#src/lib/session/session-context';
import { DATA_GIVEN_ACTIONS } from '../utils/movements';
import { CompanyBalances } from './CompanyBalances';
import { CompanyPayments } from './CompanyPayments';
import { CompanyQuotas } from './CompanyQuotas';
import { CreditHistoryTable } from './CreditHistoryTable';
import { DataUsageTable } from './DataUsageTable';
import { HistoryActions } from './HistoryActions';
import { NotAllowed } from './NotAllowed';
import { NewCodeButton, TransferCodesTable } from './TransferCodesTable';

/** What the resources tabs need of the company shown. */
export type ResourcesTabCompany = {
  id: number;
  name: string;
  level: number;
  payment_type: CompanyPaymentType;
};

export type CompanyResourcesTabName =
  | 'company.resources.credits'
  | 'company.resources.codes'
  | 'company.resources.data-history';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={3} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * A company's resources tabs (product §2 company.resources: credits, codes, data-history): its
 * balances over the credit history, the codes it issued, or its data (what it was given and
 * what it spent), each the table of the resources pages kept to this company.
 */
export function CompanyResourcesTab({
  tab,
  company,
}: {
  tab: CompanyResourcesTabName;
  company: ResourcesTabCompany;
}) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const balances = can('view_credits') ? <CompanyBalances company={company} /> : null;
  switch (tab) {
    case 'company.resources.codes':
      return (
        <Stack>
          {balances}
          {can('view_credit_transfer_codes') ? (
            <>
              <Group justify="flex-end">
                <NewCodeButton company={company} />
              </Group>
              <TransferCodesTable companyId={company.id} />
            </>
          ) : (
            <NotAllowed />
          )}
        </Stack>
      );
    case 'company.resources.data-history':
      // The data's two sides: the ledger's entries that gave it (bought, trial), then the days
      // that spent it. The ledger's 'data used' entries are left to the second table, which
      // sums them per day, device and purpose and shows what went unpaid.
      return (
        <Stack>
          {balances}
          {can('view_credits') && (
            <Section title={t('data.given.title')} testId="data-given">
              <CreditHistoryTable companyId={company.id} actions={DATA_GIVEN_ACTIONS} testId="data-history" />
            </Section>
          )}
          {can('view_company_data_history') && (
            <Section title={t('data.used.title')} testId="data-used">
              <DataUsageTable companyId={company.id} prefix="used-" />
            </Section>
          )}
          {!can(['view_credits', 'view_company_data_history']) && <NotAllowed />}
        </Stack>
      );
    default:
      return (
        <Stack>
          {balances}
          {can('view_credits') ? (
            <>
              <CompanyPayments company={company} />
              <CompanyQuotas company={company} />
              <Group justify="flex-end">
                <HistoryActions company={company} />
              </Group>
              <CreditHistoryTable companyId={company.id} />
            </>
          ) : (
            <NotAllowed />
          )}
        </Stack>
      );
  }
}
