import { Alert, Group, Pagination, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type Column<T> = {
  key: string;
  header: ReactNode;
  /** The server's sort field when the column sorts. */
  sortKey?: string;
  width?: number | string;
  render(row: T): ReactNode;
};

type Props<T> = {
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  total: number;
  rowKey(row: T): string | number;
  loading: boolean;
  /** A failure message to show instead of the rows. */
  error?: string | null;
  page: number;
  pageSize: number;
  onPage(page: number): void;
  sort?: string;
  onSort?(field: string): void;
  /** The table's accessible name. */
  label: string;
  empty: ReactNode;
  testId: string;
  minWidth?: number;
  rowProps?(row: T): Record<string, string | number>;
};

function SortMark({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  if (direction === 'ascending') return <IconArrowUp size={14} aria-hidden />;
  if (direction === 'descending') return <IconArrowDown size={14} aria-hidden />;
  return <IconArrowsSort size={14} aria-hidden opacity={0.4} />;
}

/**
 * A server-paged table: sortable headers (buttons with aria-sort), the rows of one page,
 * a pager and the total. Search and sort live with the caller (useListState).
 */
export function PagedTable<T>({
  columns,
  rows,
  total,
  rowKey,
  loading,
  error,
  page,
  pageSize,
  onPage,
  sort,
  onSort,
  label,
  empty,
  testId,
  minWidth = 720,
  rowProps,
}: Props<T>) {
  const { t } = useTranslation('companies');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Stack gap="sm">
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={minWidth}>
        <Table
          verticalSpacing="xs"
          highlightOnHover
          data-testid={testId}
          aria-label={label}
          aria-busy={loading}
        >
          <Table.Thead>
            <Table.Tr>
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
          <Table.Tbody>
            {loading && !rows
              ? Array.from({ length: 3 }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
                  <Table.Tr key={i}>
                    {columns.map((column) => (
                      <Table.Td key={column.key}>
                        <Skeleton height={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : null}
            {rows && rows.length === 0 && !loading && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" ta="center" py="md" data-testid={`${testId}-empty`}>
                    {empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows?.map((row) => (
              <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
          {t('table.range', { first, last, total })}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            size="sm"
            getControlProps={(control) =>
              control === 'previous'
                ? { 'aria-label': t('table.previous') }
                : control === 'next'
                  ? { 'aria-label': t('table.next') }
                  : {}
            }
          />
        )}
      </Group>
    </Stack>
  );
}
