import { pathOf } from '@fleetgate/shared/routes';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import {
  IconArrowsMove,
  IconBinaryTree,
  IconFlag,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { type Company, useCompanies } from './api/companies';
import { useCompanyActions } from './hooks/use-company-actions';

export const COMPANIES_PAGE_SIZE = 25;

/** users.companies (product §2): the companies the caller reaches, searched, sorted and paged by the server. */
export function CompaniesPage({ chain, params }: PageProps) {
  const { t } = useTranslation('companies');
  const { user } = useSession();
  const list = useListState({ defaultSort: 'name', pageSize: COMPANIES_PAGE_SIZE });
  const query = useCompanies({ q: list.q, sort: list.sort, limit: list.limit, offset: list.offset });
  const actions = useCompanyActions();

  const columns: Column<Company>[] = [
    { key: 'id', header: t('column.id'), sortKey: 'id', width: 80, render: (c) => c.id },
    {
      key: 'name',
      header: t('column.name'),
      sortKey: 'name',
      render: (c) => (
        <Group gap={6} wrap="nowrap">
          <CellName name={c.name} to={pathOf('company.info', { company_id: c.id })} testId="company-link" />
          {c.mfa_mandatory && (
            <Badge size="xs" variant="light" color="grape">
              {t('flag.mfa')}
            </Badge>
          )}
          {c.show_payment && (
            <Badge size="xs" variant="light" color="teal">
              {t('flag.payment')}
            </Badge>
          )}
          {c.payment_type === 'free' && (
            <Badge size="xs" variant="light" color="orange">
              {t('paymentType.free')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'parent',
      header: t('column.parent'),
      render: (c) =>
        c.parent_id === null ? (
          <Text c="dimmed">-</Text>
        ) : c.id === user.company_id ? (
          // The caller's own parent lies outside its reach: named, not linked.
          <CellName name={c.parent_name ?? ''} />
        ) : (
          <CellName name={c.parent_name ?? ''} to={pathOf('company.info', { company_id: c.parent_id })} />
        ),
    },
    { key: 'level', header: t('column.level'), sortKey: 'level', width: 80, render: (c) => c.level },
    { key: 'users', header: t('column.users'), width: 80, render: (c) => c.users_count },
    { key: 'subsidiaries', header: t('column.subsidiaries'), width: 110, render: (c) => c.children_count },
    {
      key: 'created',
      header: t('column.created'),
      sortKey: 'created_at',
      render: (c) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(c.created_at)}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 170,
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          {actions.canEdit(c) && (
            <RowAction label={t('action.edit')} onClick={() => void actions.edit(c)} testId="company-edit">
              <IconPencil size={16} />
            </RowAction>
          )}
          {actions.canFlag(c) && (
            <RowAction label={t('action.flags')} onClick={() => void actions.flags(c)} testId="company-flags">
              <IconFlag size={16} />
            </RowAction>
          )}
          {actions.canMove(c) && (
            <RowAction label={t('action.move')} onClick={() => void actions.move(c)} testId="company-move">
              <IconArrowsMove size={16} />
            </RowAction>
          )}
          {actions.canDelete(c) && (
            <RowAction
              label={t('action.delete')}
              color="red"
              onClick={() => void actions.remove(c)}
              testId="company-delete"
            >
              <IconTrash size={16} />
            </RowAction>
          )}
        </Group>
      ),
    },
  ];

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Group gap="xs">
          <Button
            component={Link}
            to={pathOf('company.tree')}
            variant="default"
            leftSection={<IconBinaryTree size={16} />}
          >
            {t('action.tree')}
          </Button>
          {actions.canCreate && (
            <>
              <Button
                variant="default"
                leftSection={<IconArrowsMove size={16} />}
                onClick={() => void actions.move()}
              >
                {t('action.moveCompany')}
              </Button>
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => void actions.create()}
                data-testid="company-create"
              >
                {t('action.create')}
              </Button>
            </>
          )}
        </Group>
      }
    >
      <Stack>
        <ListSearch
          list={list}
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          maw={360}
          testId="companies-search"
        />
        <PagedTable
          columns={columns}
          {...pageQueryProps(query, 'companies', 'fetching')}
          rowProps={(c) => ({ 'data-testid': 'company-row', 'data-company-id': c.id, 'data-name': c.name })}
          list={list}
          label={t('table.label')}
          empty={list.q ? t('table.noMatch') : t('table.empty')}
          testId="companies-table"
        />
      </Stack>
    </PageFrame>
  );
}
