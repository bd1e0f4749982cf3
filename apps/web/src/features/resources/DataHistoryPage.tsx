import { pathOf } from '@fleetgate/shared/routes';
import { Button } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { DataUsageTable } from './components/DataUsageTable';

/** services.data-history (product §2): the company data spent in every company of the caller's reach. */
export function DataHistoryPage({ chain, params }: PageProps) {
  const { t } = useTranslation('resources');
  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Button
          component={Link}
          to={pathOf('services.data-overview')}
          variant="default"
          leftSection={<IconChartBar size={16} />}
          data-testid="data-overview-open"
        >
          {t('data.overview.open')}
        </Button>
      }
    >
      <DataUsageTable />
    </PageFrame>
  );
}
