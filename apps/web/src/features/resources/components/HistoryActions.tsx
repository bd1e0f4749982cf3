import { Button, Group } from '@mantine/core';
import { IconArrowsExchange, IconFileDownload, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useSession } from '#src/lib/session/session-context';

type Company = { id: number; name: string };

/**
 * The credit history's toolbar (product §2 services.credit-history): 'Add resources' (newPool,
 * super admin), 'Move resources' (movePools, manage_credits) and the 'credit report' dialog.
 * On a company's page each starts from that company.
 */
export function HistoryActions({ company }: { company?: Company }) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const windows = useWindows();
  const forms = () => import('../forms/resource-forms');
  return (
    <Group gap="xs" wrap="wrap">
      {can('view_credits') && (
        <Button
          variant="default"
          leftSection={<IconFileDownload size={16} />}
          onClick={() =>
            windows.openNamed('creditReport', company ? { companyId: company.id } : {}, {
              id: 'credit-report',
            })
          }
          data-testid="credit-report-open"
        >
          {t('report.open')}
        </Button>
      )}
      {can('manage_credits') && (
        <Button
          variant="default"
          leftSection={<IconArrowsExchange size={16} />}
          onClick={async () =>
            void openForm(await (await forms()).movePoolsForm(company ? { source: company.id } : {}))
          }
          data-testid="resources-move"
        >
          {t('move.title')}
        </Button>
      )}
      {can('super_admin') && (
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={async () => void openForm(await (await forms()).newPoolForm(company ? { company } : {}))}
          data-testid="resources-add"
        >
          {t('pool.title')}
        </Button>
      )}
    </Group>
  );
}
