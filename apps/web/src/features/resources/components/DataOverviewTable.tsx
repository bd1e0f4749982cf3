import { formatData } from '@fleetgate/shared/resources';
import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useListState } from '#src/components/table/use-list-state';
import { type DataOverviewJson, useDataOverview } from '../api/data-usage';
import { runsOutSoon } from '../utils/data-usage';
import { CompanyCell } from './CompanyCell';
import { DATA_PAGE_SIZE } from './DataUsageTable';

type Row = DataOverviewJson & { id: number };

const amount = (bytes: number, testId: string) => (
  <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
    {formatData(bytes)}
  </Text>
);

/** The day a company's data runs out at its pace: a dash when it spends none, red within a week. */
function RunsOut({ row }: { row: DataOverviewJson }) {
  const { t } = useTranslation('resources');
  if (row.runs_out_on === null)
    return (
      <Text size="sm" c="dimmed" title={t('data.overview.notSpending')} data-testid="data-runs-out">
        —
      </Text>
    );
  const soon = runsOutSoon(row.runs_out_on);
  return (
    <Text
      size="sm"
      c={soon ? 'red' : undefined}
      fw={soon ? 700 : undefined}
      style={{ whiteSpace: 'nowrap' }}
      data-testid="data-runs-out"
      data-soon={soon ? 'yes' : 'no'}
    >
      {row.runs_out_on}
    </Text>
  );
}

/**
 * The data overview (product §2 services.data-overview; GET /credits/data-overview): every
 * company of the caller's reach in tree order, with its data left, what it spent in the last
 * 30 days, the daily average and the day it runs out at that pace. A company's spending
 * links to its days in the data history.
 */
export function DataOverviewTable() {
  const { t } = useTranslation('resources');
  const list = useListState({ defaultSort: 'path', pageSize: DATA_PAGE_SIZE });
  const query = useDataOverview({ limit: list.limit, offset: list.offset });
  const rows = useMemo<Row[] | undefined>(
    () => query.data?.rows.map((row) => ({ ...row, id: row.company_id })),
    [query.data],
  );

  const columns: Column<Row>[] = [
    {
      key: 'company',
      header: t('data.column.company'),
      render: (row) => <CompanyCell id={row.company_id} name={row.company_name} />,
    },
    {
      key: 'remaining',
      header: t('data.overview.remaining'),
      render: (row) => amount(row.remaining_data, 'data-remaining'),
    },
    {
      key: 'spent',
      header: t('data.overview.spent'),
      render: (row) =>
        row.spent_30_days > 0 ? (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            <Anchor
              component={Link}
              to={`${pathOf('services.data-history')}?company=${row.company_id}`}
              inherit
              aria-label={t('data.overview.spentLink', {
                data: formatData(row.spent_30_days),
                company: row.company_name,
              })}
              data-testid="data-spent"
            >
              {formatData(row.spent_30_days)}
            </Anchor>
          </Text>
        ) : (
          amount(0, 'data-spent')
        ),
    },
    {
      key: 'daily',
      header: t('data.overview.daily'),
      render: (row) => amount(row.daily_average, 'data-daily'),
    },
    { key: 'runsOut', header: t('data.overview.runsOut'), render: (row) => <RunsOut row={row} /> },
  ];

  return (
    <PagedTable
      columns={columns}
      {...pageQueryProps(query, 'data overview', 'fetching')}
      rows={rows}
      rowProps={(row) => ({ 'data-testid': 'data-overview-row', 'data-company': row.company_name })}
      list={list}
      label={t('data.overview.label')}
      empty={t('data.overview.empty')}
      testId="data-overview"
      minWidth={720}
    />
  );
}
