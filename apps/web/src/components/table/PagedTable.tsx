import { Alert, Group, Pagination, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import classes from './cells.module.css';
import { EmptyRow } from './EmptyRow';
import { pageControlProps } from './page-controls';
import { RowCheckbox } from './RowCheckbox';
import type { ListState } from './use-list-state';

export type Column<T> = {
  key: string;
  header: ReactNode;
  /** The server's sort field when the column sorts. */
  sortKey?: string;
  width?: number | string;
  render(row: T): ReactNode;
};

/** A row's identity: a database id, or a text one (a command's uuid, a point's time). */
export type RowId = number | string;

/** Row selection: a checkbox a row and one for the whole page, ids kept by the caller. */
export type Selection<K extends RowId = number> = {
  selected: ReadonlySet<K>;
  onChange(next: Set<K>): void;
  /** Rows that cannot be chosen (oneself). */
  disabled?(id: K): boolean;
  /** The accessible name of the page's checkbox ("Select the users on this page"). */
  pageLabel: string;
  /** The accessible name of a row's checkbox. */
  rowLabel(id: K): string;
};

/** Page and sort: from a useListState (kept in the URL), or held by the caller. */
type Paging =
  | {
      list: Pick<ListState, 'page' | 'limit' | 'setPage' | 'sort' | 'toggleSort'>;
      page?: never;
      pageSize?: never;
      onPage?: never;
      sort?: never;
      onSort?: never;
    }
  | {
      list?: never;
      page: number;
      pageSize: number;
      onPage(page: number): void;
      sort?: string;
      onSort?(field: string): void;
    };

type Props<T extends { id: RowId }> = Paging & {
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  total: number;
  loading: boolean;
  /** A failure message to show instead of the rows. */
  error?: string | null;
  /** The table's accessible name. */
  label: string;
  empty: ReactNode;
  /** The table's test id; rows are `${testId}-row`, the empty line `${testId}-empty`, the range `${testId}-total`. */
  testId: string;
  minWidth?: number;
  /** More attributes of a row's <tr> (they win over `data-testid` and `data-row-id`). */
  rowProps?(row: T): Record<string, string | number>;
  selection?: Selection<T['id']>;
};

/** What PagedTable needs to know of a page query; any react-query result of `{ rows, total }` fits. */
type PageQuery<T> = {
  data?: { rows: T[]; total: number } | undefined;
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
};

/**
 * A page query's rows, total, loading state and failure message, spread into PagedTable.
 * `loading: 'fetching'` shows the loading state on every refetch, not only the first load.
 */
export function pageQueryProps<T>(
  query: PageQuery<T>,
  noun: string,
  loading: 'pending' | 'fetching' = 'pending',
) {
  return {
    rows: query.data?.rows,
    total: query.data?.total ?? 0,
    loading: loading === 'fetching' ? query.isFetching : query.isPending,
    error: query.isError ? failureMessage(query.error, 'get', noun) : null,
  };
}

function SortMark({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  if (direction === 'ascending') return <IconArrowUp size={14} aria-hidden />;
  if (direction === 'descending') return <IconArrowDown size={14} aria-hidden />;
  return <IconArrowsSort size={14} aria-hidden opacity={0.4} />;
}

/**
 * A server-paged table: sortable headers (buttons with aria-sort), optional row
 * selection, the rows of one page, a pager and the range shown. Search and sort live
 * with the caller (useListState).
 */
export function PagedTable<T extends { id: RowId }>(props: Props<T>) {
  const {
    columns,
    rows,
    total,
    loading,
    error,
    label,
    empty,
    testId,
    minWidth = 720,
    rowProps,
    selection,
  } = props;
  const { page, pageSize, onPage, sort, onSort } = props.list
    ? {
        page: props.list.page,
        pageSize: props.list.limit,
        onPage: props.list.setPage,
        sort: props.list.sort,
        onSort: props.list.toggleSort,
      }
    : props;
  const { t } = useTranslation('common');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const selectable = (rows ?? []).filter((row) => !selection?.disabled?.(row.id));
  const allChosen = selectable.length > 0 && selectable.every((row) => selection?.selected.has(row.id));
  const width = columns.length + (selection ? 1 : 0);

  function toggle(id: T['id'], on: boolean) {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (on) next.add(id);
    else next.delete(id);
    selection.onChange(next);
  }

  return (
    <Stack gap="sm">
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="xs" data-testid={testId} aria-label={label} aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={36}>
                  <RowCheckbox
                    aria-label={selection.pageLabel}
                    checked={allChosen}
                    indeterminate={!allChosen && selectable.some((row) => selection.selected.has(row.id))}
                    onChange={(e) => {
                      const next = new Set(selection.selected);
                      for (const row of selectable) {
                        if (e.currentTarget.checked) next.add(row.id);
                        else next.delete(row.id);
                      }
                      selection.onChange(next);
                    }}
                  />
                </Table.Th>
              )}
              {columns.map((column) => {
                const direction =
                  column.sortKey && sort === column.sortKey
                    ? 'ascending'
                    : column.sortKey && sort === `-${column.sortKey}`
                      ? 'descending'
                      : 'none';
                return (
                  <Table.Th
                    key={column.key}
                    w={column.width}
                    {...(column.sortKey ? { 'aria-sort': direction } : {})}
                  >
                    {column.sortKey && onSort ? (
                      <UnstyledButton
                        onClick={() => onSort(column.sortKey!)}
                        fw={700}
                        fz="sm"
                        data-testid={`sort-${column.sortKey}`}
                      >
                        <Group gap={4} wrap="nowrap">
                          {column.header}
                          <SortMark direction={direction} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          {/* Rows as plain elements with the table's look (cells.module.css): a table draws many. */}
          <tbody className={classes.rows}>
            {loading && !rows
              ? Array.from({ length: 3 }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
                  <Table.Tr key={i}>
                    {Array.from({ length: width }, (__, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity.
                      <Table.Td key={j}>
                        <Skeleton height={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : null}
            {rows && rows.length === 0 && !loading && (
              <EmptyRow colSpan={width} testId={`${testId}-empty`}>
                {empty}
              </EmptyRow>
            )}
            {rows?.map((row) => (
              <tr
                key={row.id}
                className={classes.row}
                data-row-id={row.id}
                data-testid={`${testId}-row`}
                {...rowProps?.(row)}
              >
                {selection && (
                  <td className={classes.cell}>
                    <RowCheckbox
                      aria-label={selection.rowLabel(row.id)}
                      checked={selection.selected.has(row.id)}
                      disabled={selection.disabled?.(row.id)}
                      onChange={(e) => toggle(row.id, e.currentTarget.checked)}
                    />
                  </td>
                )}
                {columns.map((column) => (
                  <td key={column.key} className={classes.cell}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
          {total > 0 ? t('table.range', { first, last, total }) : ''}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            size="sm"
            getControlProps={pageControlProps(t)}
          />
        )}
      </Group>
    </Stack>
  );
}
