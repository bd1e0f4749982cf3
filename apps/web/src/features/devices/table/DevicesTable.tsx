import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import classes from '#src/components/table/cells.module.css';
import { EmptyRow } from '#src/components/table/EmptyRow';
import type { DeviceItem } from '../api/types';
import type { TableSettings } from '../utils/table-settings';
import { SORT_OF_COLUMN } from './columns';

const SPACING = { compact: 4, normal: 'xs', comfortable: 'md' } as const;

type Props = {
  rows: DeviceItem[];
  columns: ColumnDef<DeviceItem>[];
  settings: TableSettings;
  /** `name` or `-name` (the API's sort). */
  sort: string;
  onSort(sort: string): void;
  selection: RowSelectionState;
  onSelection(next: RowSelectionState): void;
  loading: boolean;
};

/**
 * The devices table: TanStack Table over one server page (paging, sort and filters are
 * the server's), columns and density from the user's table settings.
 */
export function DevicesTable({
  rows,
  columns,
  settings,
  sort,
  onSort,
  selection,
  onSelection,
  loading,
}: Props) {
  const { t } = useTranslation('devices');
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.id),
    manualPagination: true,
    manualSorting: true,
    state: {
      columnOrder: settings.order,
      columnVisibility: Object.fromEntries(settings.hidden.map((id) => [id, false])),
      rowSelection: selection,
    },
    enableRowSelection: true,
    onRowSelectionChange: (updater) =>
      onSelection(typeof updater === 'function' ? updater(selection) : updater),
  });
  const striped = settings.density === 'compact';
  const sortKey = sort.replace(/^-/, '');
  const descending = sort.startsWith('-');

  return (
    // A plain scrolling box: Mantine's ScrollContainer measured itself again as the rows came.
    <div className={classes.scroll}>
      <Table
        verticalSpacing={SPACING[settings.density]}
        data-testid="devices-table"
        data-density={settings.density}
        data-loading={loading || undefined}
        // As wide as its content (a badge or time is never cut); the container scrolls sideways.
        style={{ opacity: loading ? 0.6 : 1, width: 'max-content', minWidth: 'max(100%, 900px)' }}
      >
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => {
                const key = SORT_OF_COLUMN[header.column.id];
                const label = flexRender(header.column.columnDef.header, header.getContext());
                const active = key !== undefined && key === sortKey;
                return (
                  <Table.Th
                    key={header.id}
                    data-column={header.column.id}
                    style={{ whiteSpace: 'nowrap' }}
                    // The column header carries the sort order; its button only changes it.
                    aria-sort={
                      key ? (active ? (descending ? 'descending' : 'ascending') : 'none') : undefined
                    }
                  >
                    {key ? (
                      <UnstyledButton
                        onClick={() => onSort(active && !descending ? `-${key}` : key)}
                        data-testid={`sort-${header.column.id}`}
                      >
                        <Group gap={4} wrap="nowrap">
                          <Text fw={600} size="sm">
                            {label}
                          </Text>
                          {active ? (
                            descending ? (
                              <IconArrowDown size={14} />
                            ) : (
                              <IconArrowUp size={14} />
                            )
                          ) : (
                            <IconArrowsSort size={14} opacity={0.4} />
                          )}
                        </Group>
                      </UnstyledButton>
                    ) : (
                      label
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Thead>
        {/* The rows are plain elements (components/table/cells.module.css): a Mantine
            component per cell made fifty rows take a second to draw on a slow machine. */}
        <tbody className={classes.rows} data-striped={striped || undefined} data-one-line>
          {rows.length === 0 && !loading && (
            <EmptyRow colSpan={table.getVisibleLeafColumns().length} testId="devices-empty">
              {t('table.empty')}
            </EmptyRow>
          )}
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className={classes.row}
              data-testid="device-row"
              data-device-id={row.id}
              data-serial={row.original.serial}
              data-selected={row.getIsSelected() || undefined}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={classes.cell} data-column={cell.column.id}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
