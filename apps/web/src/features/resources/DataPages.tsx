import { pathOf, type RouteName } from '@fleetgate/shared/routes';
import { Button } from '@mantine/core';
import { IconChartBar, IconHistory } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { DataOverviewTable } from './components/DataOverviewTable';
import { DataUsageTable } from './components/DataUsageTable';

/** A company data page, with a button to its other view (history ↔ overview). */
function DataPage({
  chain,
  params,
  other,
  children,
}: PageProps & {
  other: { route: RouteName; icon: ReactNode; label: string; testId: string };
  children: ReactNode;
}) {
  const { t } = useTranslation('resources');
  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Button
          component={Link}
          to={pathOf(other.route)}
          variant="default"
          leftSection={other.icon}
          data-testid={other.testId}
        >
          {t(other.label)}
        </Button>
      }
    >
      {children}
    </PageFrame>
  );
}

/** services.data-history (product §2): the company data spent in every company of the caller's reach. */
export function DataHistoryPage(props: PageProps) {
  return (
    <DataPage
      {...props}
      other={{
        route: 'services.data-overview',
        icon: <IconChartBar size={16} />,
        label: 'data.overview.open',
        testId: 'data-overview-open',
      }}
    >
      <DataUsageTable />
    </DataPage>
  );
}

/** services.data-overview (product §2): each company's data left and the day it runs out. */
export function DataOverviewPage(props: PageProps) {
  return (
    <DataPage
      {...props}
      other={{
        route: 'services.data-history',
        icon: <IconHistory size={16} />,
        label: 'data.history.open',
        testId: 'data-history-open',
      }}
    >
      <DataOverviewTable />
    </DataPage>
  );
}
