import { Badge, Button, Code, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconBan, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import {
  type CodeListParams,
  RESOURCE_CHANGE_KEYS,
  resourceActions,
  type TransferCodeJson,
  useTransferCodes,
} from '../api/resources';
import { type CodeStatus, codeStatus } from '../utils/movements';
import { CompanyCell } from './CompanyCell';
import { CopyCode } from './CopyCode';

export const CODES_PAGE_SIZE = 25;

const STATUS: Readonly<Record<CodeStatus, { key: string; color: string }>> = {
  used: { key: 'status.used', color: 'gray' },
  unused: { key: 'status.unused', color: 'green' },
  cancelled: { key: 'status.cancelled', color: 'red' },
};

type UsedFilter = 'all' | 'true' | 'false';

/**
 * 'New code' (product §3 newCode), for holders of manage_credits. On a company's page it shows
 * where a code can come from that company: the caller's own, or any for the super admin (whose
 * 'From company' starts at it).
 */
export function NewCodeButton({ company }: { company?: { id: number; name: string } }) {
  const { t } = useTranslation('resources');
  const { can, user } = useSession();
  if (!can('manage_credits')) return null;
  if (company && !can('super_admin') && company.id !== user.company_id) return null;
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      onClick={async () => {
        const { newCodeForm } = await import('../forms/resource-forms');
        await openForm(await newCodeForm(company ? { company } : {}));
      }}
      data-testid="code-create"
    >
      {t('code.new')}
    </Button>
  );
}

/**
 * The transfer codes of product §2 services.credit-codes (GET /credits/codes): each code with
 * a copy button, its type, amount, state (Used, Not Used, Cancelled) and who made it; an unused
 * code may be cancelled, which gives its resources back. `companyId` keeps to one issuer.
 */
export function TransferCodesTable({ companyId }: { companyId?: number }) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const windows = useWindows();
  const list = useListState({ defaultSort: '-created_at', pageSize: CODES_PAGE_SIZE });
  const [used, setUsed] = useState<UsedFilter>('all');
  const params: CodeListParams = {
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...(companyId === undefined ? {} : { company_id: [companyId] }),
    ...(used === 'all' ? {} : { used }),
  };
  const query = useTransferCodes(params);
  const cancellation = useAction({
    call: (code: TransferCodeJson) => resourceActions.cancelCode(code.id),
    failure: { verb: 'cancel', item: 'code' },
    invalidate: RESOURCE_CHANGE_KEYS,
    success: t('cancel.done'),
    ownWords: true,
  });
  const manage = can('manage_credits');

  async function cancel(code: TransferCodeJson) {
    const yes = await windows.confirm({
      title: t('cancel.title'),
      message: t('cancel.message', { code: code.code, amount: code.amount, type: code.credit_type_name }),
      confirmLabel: t('cancel.confirm'),
      cancelLabel: t('cancel.keep'),
      danger: true,
      id: `code-cancel:${code.id}`,
    });
    if (yes) await cancellation.run(code);
  }

  const columns: Column<TransferCodeJson>[] = [
    {
      key: 'code',
      header: t('column.code'),
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          <Code style={{ whiteSpace: 'nowrap' }} data-testid="code-value">
            {c.code}
          </Code>
          <CopyCode code={c.code} testId="code-copy" />
        </Group>
      ),
    },
    { key: 'type', header: t('column.type'), sortKey: 'credit_type', render: (c) => c.credit_type_name },
    {
      key: 'amount',
      header: t('column.amount'),
      sortKey: 'amount',
      render: (c) => c.amount.toLocaleString('en-US'),
    },
    ...(companyId === undefined
      ? [
          {
            key: 'company',
            header: t('column.issuer'),
            sortKey: 'company_name',
            render: (c: TransferCodeJson) => <CompanyCell id={c.company_id} name={c.company_name} />,
          },
        ]
      : []),
    {
      key: 'status',
      header: t('column.status'),
      sortKey: 'used_at',
      render: (c) => {
        const status = STATUS[codeStatus(c)];
        return (
          <Stack gap={2} align="flex-start">
            <Badge variant="light" color={status.color} tt="none" data-testid="code-status">
              {t(status.key)}
            </Badge>
            {c.used_at && (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatTime(c.used_at)}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'comment',
      header: t('column.comment'),
      render: (c) => (
        <Text size="sm" lineClamp={2} maw={240} title={c.comment}>
          {c.comment || '—'}
        </Text>
      ),
    },
    {
      key: 'created',
      header: t('column.created'),
      sortKey: 'created_at',
      render: (c) => (
        <Stack gap={0}>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatTime(c.created_at)}
          </Text>
          {c.created_by && <CellName name={c.created_by} lines={1} maw="14rem" />}
        </Stack>
      ),
    },
    ...(manage
      ? [
          {
            key: 'actions',
            header: t('column.actions'),
            width: 70,
            render: (c: TransferCodeJson) =>
              codeStatus(c) === 'unused' ? (
                <RowAction
                  label={t('cancel.action')}
                  color="red"
                  onClick={() => void cancel(c)}
                  disabled={cancellation.pending && cancellation.variables?.id === c.id}
                  testId="code-cancel"
                >
                  <IconBan size={16} />
                </RowAction>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <ListSearch
          list={list}
          label={t('codes.search')}
          placeholder={t('codes.searchPlaceholder')}
          w={260}
          testId="codes-search"
        />
        <SegmentedControl
          aria-label={t('filter.used')}
          value={used}
          onChange={(value) => {
            setUsed(value as UsedFilter);
            list.setPage(1);
          }}
          data={[
            { value: 'all', label: t('filter.all') },
            { value: 'false', label: t('status.unused') },
            { value: 'true', label: t('status.used') },
          ]}
          data-testid="codes-used-filter"
        />
      </Group>
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'codes', 'fetching')}
        rowProps={(c) => ({ 'data-testid': 'code-row', 'data-code': c.code, 'data-status': codeStatus(c) })}
        list={list}
        label={t('codes.label')}
        empty={list.q || used !== 'all' ? t('codes.noMatch') : t('codes.empty')}
        testId="transfer-codes"
        minWidth={960}
      />
    </Stack>
  );
}
