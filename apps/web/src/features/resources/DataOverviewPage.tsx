import { pathOf } from '@fleetgate/shared/routes';
import { Button } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { DataOverviewTable } from './components/DataOverviewTable';

/** services.data-overview (product §2): each company's data left and the day it runs out. */
export function DataOverviewPage({ chain, params }: PageProps) {
  const { t } = useTranslation('resources');
  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Button
          component={Link}
          to={pathOf('services.data-history')}
          variant="default"
          leftSection={<IconHistory size={16} />}
          data-testid="data-history-open"
        >
          {t('data.history.open')}
        </Button>
      }
    >
      <DataOverviewTable />
    </PageFrame>
  );
}
