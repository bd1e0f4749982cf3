import { Alert, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '#src/lib/session/session-context';
import { DATA_ACTIONS } from '../utils/movements';
import { CompanyBalances } from './CompanyBalances';
import { CreditHistoryTable } from './CreditHistoryTable';
import { HistoryActions } from './HistoryActions';
import { NewCodeButton, TransferCodesTable } from './TransferCodesTable';

export type CompanyResourcesTabName =
  | 'company.resources.credits'
  | 'company.resources.codes'
  | 'company.resources.data-history';

function NotAllowed() {
  const { t } = useTranslation('resources');
  return (
    <Alert color="gray" data-testid="resources-not-allowed">
      {t('company.notAllowed')}
    </Alert>
  );
}

/**
 * A company's resources tabs (product §2 company.resources: credits, codes, data-history): its
 * balances over the credit history, the codes it issued, or the data it was given, each the
 * table of the resources pages kept to this company.
 */
export function CompanyResourcesTab({
  tab,
  company,
}: {
  tab: CompanyResourcesTabName;
  company: { id: number; name: string };
}) {
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
      return (
        <Stack>
          {balances}
          {can('view_credits') ? (
            <CreditHistoryTable companyId={company.id} actions={DATA_ACTIONS} testId="data-history" />
          ) : (
            <NotAllowed />
          )}
        </Stack>
      );
    default:
      return (
        <Stack>
          {balances}
          {can('view_credits') ? (
            <>
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
