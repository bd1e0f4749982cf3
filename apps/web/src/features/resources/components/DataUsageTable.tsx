import { formatData } from '@fleetgate/shared/resources';
import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Grid, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useListState } from '#src/components/table/use-list-state';
import { companyKeys, fetchCompanyOptions } from '#src/features/companies/api/companies';
import { useSession } from '#src/lib/session/session-context';
import { type DataUsageJson, useDataHistory } from '../api/data-usage';
import { PURPOSE_KEYS, usageRowId, usageTotals } from '../utils/data-usage';
import { isDay } from '../utils/report-period';
import { CompanyCell } from './CompanyCell';
import { PeriodFilter } from './PeriodFilter';

export const DATA_PAGE_SIZE = 25;

type Row = DataUsageJson & { id: string };

/**
 * The filters of the data history, kept in the address (`?company=&from=&to=`, after
 * `prefix`) so that the overview can link to one company's days and the back button
 * returns to them. A value the server would refuse is read as no filter.
 */
function useDataFilters(prefix: string) {
  const [params, setParams] = useSearchParams();
  const read = (name: string) => params.get(`${prefix}${name}`) ?? '';
  const company = /^[1-9]\d{0,9}$/.test(read('company')) ? read('company') : '';
  const from = read('from');
  const to = read('to');
  return {
    company,
    from,
    to,
    /** Sets filters and goes back to the first page, in one change of the address. */
    set(changes: Partial<Record<'company' | 'from' | 'to', string | null>>) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value) next.set(`${prefix}${name}`, value);
            else next.delete(`${prefix}${name}`);
          }
          next.delete(`${prefix}page`);
          return next;
        },
        { replace: true },
      );
    },
  };
}

/** A device's traffic names the device, linked to its page for those who may open it. */
function DeviceCell({ row }: { row: DataUsageJson }) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  if (row.device_id === null)
    return (
      <Text size="sm" c="dimmed">
        {t('data.noDevice')}
      </Text>
    );
  const name = row.device_name ?? t('device', { id: row.device_id });
  return can('view_devices') ? (
    <Anchor
      component={Link}
      to={pathOf('device.info', { id: row.device_id })}
      size="sm"
      lineClamp={1}
      maw="16rem"
    >
      {name}
    </Anchor>
  ) : (
    <Text size="sm" lineClamp={1} maw="16rem">
      {name}
    </Text>
  );
}

/** The data of a row, and under it the part relayed after the company's data ran out. */
function DataCell({ row }: { row: DataUsageJson }) {
  const { t } = useTranslation('resources');
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="data-bytes">
        {formatData(row.bytes)}
      </Text>
      {row.unpaid_bytes > 0 && (
        <Tooltip
          label={t('data.unpaidHint')}
          withArrow
          multiline
          maw={260}
          events={{ hover: true, focus: true, touch: true }}
        >
          <Text
            size="xs"
            c="orange"
            fw={500}
            tabIndex={0}
            w="fit-content"
            style={{ whiteSpace: 'nowrap', cursor: 'help' }}
            data-testid="data-unpaid"
          >
            {t('data.unpaid', { data: formatData(row.unpaid_bytes) })}
          </Text>
        </Tooltip>
      )}
    </Stack>
  );
}

/**
 * Company data spent (product §2 services.data-history, company.data-history; GET
 * /credits/data-history): a row per day, company, device and purpose, newest day first,
 * paged by the server. Filters for a period of days and, across companies, the company.
 * `companyId` keeps to one company (its page's tabs); `prefix` keeps its page and filters in
 * the address apart from another table's on the same page.
 */
export function DataUsageTable({
  companyId,
  prefix = '',
  testId = 'data-usage',
}: {
  companyId?: number;
  prefix?: string;
  testId?: string;
}) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const list = useListState({ defaultSort: '-day', pageSize: DATA_PAGE_SIZE, prefix });
  const filters = useDataFilters(prefix);
  const fixed = companyId !== undefined;
  const chooseCompany = !fixed && can('view_companies');
  const companies = useQuery({
    queryKey: companyKeys.options('all'),
    queryFn: () => fetchCompanyOptions(),
    enabled: chooseCompany,
  });
  const company = fixed ? companyId : chooseCompany && filters.company ? Number(filters.company) : undefined;
  const query = useDataHistory({
    limit: list.limit,
    offset: list.offset,
    ...(company === undefined ? {} : { company_id: [company] }),
    ...(isDay(filters.from) ? { from: filters.from } : {}),
    ...(isDay(filters.to) ? { to: filters.to } : {}),
  });
  const rows = useMemo<Row[] | undefined>(
    () => query.data?.rows.map((row) => ({ ...row, id: usageRowId(row) })),
    [query.data],
  );
  const companyOptions = useMemo(() => {
    const options = companies.data ?? [];
    if (!filters.company || options.some((o) => o.value === filters.company)) return options;
    // A company beyond the selector's first page (opened from the overview): named from its rows.
    const name = rows?.find((r) => String(r.company_id) === filters.company)?.company_name;
    return [
      { value: filters.company, label: name ? `${name} #${filters.company}` : `#${filters.company}` },
      ...options,
    ];
  }, [companies.data, filters.company, rows]);
  const filtered = Boolean(filters.from || filters.to || (chooseCompany && filters.company));
  const totals = usageTotals(rows ?? []);

  const columns: Column<Row>[] = [
    {
      key: 'day',
      header: t('data.column.day'),
      render: (row) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {row.day}
        </Text>
      ),
    },
    ...(fixed
      ? []
      : [
          {
            key: 'company',
            header: t('data.column.company'),
            render: (row: Row) => <CompanyCell id={row.company_id} name={row.company_name} />,
          },
        ]),
    { key: 'device', header: t('data.column.device'), render: (row) => <DeviceCell row={row} /> },
    {
      key: 'purpose',
      header: t('data.column.purpose'),
      render: (row) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="data-purpose">
          {t(PURPOSE_KEYS[row.purpose])}
        </Text>
      ),
    },
    { key: 'data', header: t('data.column.data'), render: (row) => <DataCell row={row} /> },
  ];

  return (
    <Stack gap="sm">
      <Grid gap="sm" align="flex-start">
        {chooseCompany && (
          <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
            <Select
              label={t('data.filter.company')}
              placeholder={t('filter.all')}
              data={companyOptions}
              value={filters.company || null}
              onChange={(value) => filters.set({ company: value })}
              searchable
              clearable
              nothingFoundMessage={t('data.filter.noCompanies')}
              comboboxProps={{ withinPortal: true }}
              data-testid={`${testId}-company`}
            />
          </Grid.Col>
        )}
        <PeriodFilter
          period={{ from: filters.from, to: filters.to }}
          onChange={(period) => filters.set(period)}
          testId={testId}
        />
      </Grid>
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'data history', 'fetching')}
        rows={rows}
        rowProps={(row) => ({
          'data-testid': 'data-usage-row',
          'data-purpose': row.purpose,
          'data-unpaid': row.unpaid_bytes > 0 ? 'yes' : 'no',
        })}
        list={list}
        label={t('data.label')}
        empty={filtered ? t('data.noMatch') : t('data.empty')}
        testId={testId}
        minWidth={fixed ? 560 : 760}
      />
      {rows && rows.length > 0 && (
        <Text size="sm" data-testid={`${testId}-page-total`}>
          {totals.unpaid > 0
            ? t('data.pageTotalUnpaid', { data: formatData(totals.bytes), unpaid: formatData(totals.unpaid) })
            : t('data.pageTotal', { data: formatData(totals.bytes) })}
        </Text>
      )}
    </Stack>
  );
}
