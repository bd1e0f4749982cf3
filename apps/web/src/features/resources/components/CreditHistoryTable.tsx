import { pathOf } from '@fleetgate/shared/routes';
import type { LedgerAction } from '@fleetgate/shared/schemas/resources';
import { Anchor, Badge, Grid, MultiSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useListState } from '#src/components/table/use-list-state';
import { currentTimezone, formatTime } from '#src/lib/time';
import { type MovementJson, useMovements, useResourceTypes } from '../api/resources';
import { ACTION_KEYS, ACTIONS, movementAmount } from '../utils/movements';
import { periodFilter } from '../utils/report-period';
import { CompanyCell } from './CompanyCell';
import { PeriodFilter } from './PeriodFilter';

export const HISTORY_PAGE_SIZE = 25;

const ACTION_COLOURS: Readonly<Record<LedgerAction, string>> = {
  pool: 'green',
  move: 'blue',
  code_create: 'grape',
  code_redeem: 'teal',
  code_cancel: 'gray',
  buy_data: 'orange',
  trial_data: 'cyan',
  activate: 'indigo',
  renew: 'indigo',
  spend_data: 'yellow',
  move_days: 'violet',
  move_pack: 'violet',
};

function Amount({ movement }: { movement: MovementJson }) {
  const { units, data } = movementAmount(movement);
  return (
    <Stack gap={0} data-testid="movement-amount">
      {units !== null && (
        <Text size="sm" fw={600}>
          {units}
        </Text>
      )}
      {data !== null && (
        <Text size="sm" c={units === null ? undefined : 'dimmed'} fw={units === null ? 600 : undefined}>
          {units === null ? data : `→ ${data}`}
        </Text>
      )}
    </Stack>
  );
}

const dash = (value: string | null) => (value ? value : '—');

/**
 * The credit history of product §2 services.credit-history (GET /credits): every pool and
 * every movement the caller may read, newest first, paged by the server; filters for the
 * action, the type and a period. `companyId` keeps to one company (its resources tab);
 * `actions` fixes the actions (a company's data history).
 */
export function CreditHistoryTable({
  companyId,
  actions,
  testId = 'credit-history',
}: {
  companyId?: number;
  actions?: readonly LedgerAction[];
  testId?: string;
}) {
  const { t } = useTranslation('resources');
  const list = useListState({ defaultSort: '-created_at', pageSize: HISTORY_PAGE_SIZE });
  const types = useResourceTypes();
  const [chosenActions, setChosenActions] = useState<LedgerAction[]>([]);
  const [chosenTypes, setChosenTypes] = useState<string[]>([]);
  const [period, setPeriod] = useState<{ from: string; to: string }>({ from: '', to: '' });
  const fixed = actions !== undefined;
  const action = fixed ? actions : chosenActions;
  const query = useMovements({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...(companyId === undefined ? {} : { company_id: [companyId] }),
    ...(action.length ? { action } : {}),
    ...(chosenTypes.length ? { credit_type: chosenTypes.map(Number) } : {}),
    ...periodFilter(period, currentTimezone()),
  });
  const filtered =
    list.q !== '' || chosenActions.length > 0 || chosenTypes.length > 0 || period.from || period.to;
  const refilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      list.setPage(1);
    };

  const columns: Column<MovementJson>[] = [
    {
      key: 'date',
      header: t('column.date'),
      sortKey: 'created_at',
      render: (m) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(m.created_at)}
        </Text>
      ),
    },
    {
      key: 'action',
      header: t('column.action'),
      sortKey: 'action',
      render: (m) => (
        <Badge variant="light" color={ACTION_COLOURS[m.action]} tt="none" data-testid="movement-action">
          {t(ACTION_KEYS[m.action])}
        </Badge>
      ),
    },
    {
      key: 'type',
      header: t('column.type'),
      sortKey: 'credit_type',
      render: (m) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {m.credit_type_name ?? t('type.data')}
        </Text>
      ),
    },
    {
      key: 'amount',
      header: t('column.amount'),
      sortKey: 'amount',
      render: (m) => <Amount movement={m} />,
    },
    {
      key: 'from',
      header: t('column.from'),
      render: (m) => <CompanyCell id={m.source_company_id} name={m.source_company_name} />,
    },
    {
      key: 'to',
      header: t('column.to'),
      render: (m) =>
        m.device_id === null ? (
          <CompanyCell id={m.target_company_id} name={m.target_company_name} />
        ) : (
          // A device's service took the resources: the device is where they went.
          <Stack gap={0}>
            <CompanyCell id={m.target_company_id} name={m.target_company_name} />
            <Anchor component={Link} to={pathOf('device.info', { id: m.device_id })} size="sm">
              {t('device', { id: m.device_id })}
            </Anchor>
          </Stack>
        ),
    },
    {
      key: 'price',
      header: t('column.price'),
      render: (m) =>
        m.credit_price === null && m.pro_form_nr === null ? (
          <Text size="sm">—</Text>
        ) : (
          <Stack gap={0}>
            <Text size="sm">{dash(m.credit_price)}</Text>
            {m.pro_form_nr && <CellName name={m.pro_form_nr} lines={1} maw="10rem" />}
          </Stack>
        ),
    },
    {
      key: 'comment',
      header: t('column.comment'),
      render: (m) => (
        <Text size="sm" lineClamp={2} maw={260} title={m.comment ?? undefined}>
          {dash(m.comment)}
        </Text>
      ),
    },
    {
      key: 'user',
      header: t('column.user'),
      render: (m) => (m.user_email ? <CellName name={m.user_email} lines={1} maw="14rem" /> : dash(null)),
    },
  ];

  return (
    <Stack>
      <Grid gap="sm" align="flex-end">
        <Grid.Col span={{ base: 12, sm: 6, lg: fixed ? 4 : 3 }}>
          <ListSearch
            list={list}
            label={t('history.search')}
            placeholder={t('history.searchPlaceholder')}
            testId={`${testId}-search`}
          />
        </Grid.Col>
        {!fixed && (
          <Grid.Col span={{ base: 6, lg: 3 }}>
            <MultiSelect
              label={t('filter.action')}
              placeholder={chosenActions.length ? undefined : t('filter.all')}
              data={ACTIONS.map((a) => ({ value: a, label: t(ACTION_KEYS[a]) }))}
              value={chosenActions}
              onChange={refilter((value: string[]) => setChosenActions(value as LedgerAction[]))}
              clearable
              comboboxProps={{ withinPortal: true }}
              data-testid={`${testId}-action-filter`}
            />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: fixed ? 12 : 6, sm: 6, lg: fixed ? 4 : 2 }}>
          <MultiSelect
            label={t('filter.type')}
            placeholder={chosenTypes.length ? undefined : t('filter.all')}
            data={(types.data ?? []).map((type) => ({ value: String(type.id), label: type.name }))}
            value={chosenTypes}
            onChange={refilter(setChosenTypes)}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </Grid.Col>
        <PeriodFilter period={period} onChange={refilter(setPeriod)} testId={testId} />
      </Grid>
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'credit history', 'fetching')}
        rowProps={(m) => ({ 'data-testid': 'movement-row', 'data-action': m.action })}
        list={list}
        label={t('history.label')}
        empty={filtered ? t('history.noMatch') : t('history.empty')}
        testId={testId}
        minWidth={1040}
      />
    </Stack>
  );
}
