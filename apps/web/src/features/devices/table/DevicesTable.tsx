import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import {
  type Cell,
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
} from '@tanstack/react-table';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from '#src/components/table/cells.module.css';
import { EmptyRow } from '#src/components/table/EmptyRow';
import type { DeviceItem } from '../api/types';
import { ModelSprites } from '../components/ModelPicture';
import type { TableSettings } from '../utils/table-settings';
import { SORT_OF_COLUMN } from './columns';

// Mantine's Table spacings 4 px, xs and md, as its verticalSpacing sets them.
const SPACING = {
  compact: 'calc(0.25rem * var(--mantine-scale))',
  normal: 'var(--mantine-spacing-xs)',
  comfortable: 'var(--mantine-spacing-md)',
} as const;

/**
 * A cell's content from its column's function, called as a function: the devices columns'
 * cells use no hooks, and `flexRender` would make each of them a component of its own
 * (fifty rows of eleven columns, each with its own fiber for React to create and compare).
 */
function drawCell(cell: Cell<DeviceItem, unknown>): ReactNode {
  const draw = cell.column.columnDef.cell;
  return typeof draw === 'function' ? draw(cell.getContext()) : draw;
}

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
      <ModelSprites />
      <table
        className={classes.table}
        data-testid="devices-table"
        data-density={settings.density}
        data-loading={loading || undefined}
        // As wide as its content (a badge or time is never cut); the container scrolls sideways.
        style={
          {
            '--table-vertical-spacing': SPACING[settings.density],
            opacity: loading ? 0.6 : 1,
            width: 'max-content',
            minWidth: 'max(100%, 900px)',
          } as CSSProperties
        }
      >
        {/* The head is plain elements too (the rows below say why): it is drawn again with them. */}
        <thead className={classes.head}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const key = SORT_OF_COLUMN[header.column.id];
                const label = flexRender(header.column.columnDef.header, header.getContext());
                const active = key !== undefined && key === sortKey;
                return (
                  <th
                    key={header.id}
                    className={classes.headCell}
                    data-column={header.column.id}
                    // The column header carries the sort order; its button only changes it.
                    aria-sort={
                      key ? (active ? (descending ? 'descending' : 'ascending') : 'none') : undefined
                    }
                  >
                    {key ? (
                      <button
                        type="button"
                        className={classes.sortButton}
                        onClick={() => onSort(active && !descending ? `-${key}` : key)}
                        data-testid={`sort-${header.column.id}`}
                      >
                        {label}
                        {active ? (
                          descending ? (
                            <IconArrowDown size={14} />
                          ) : (
                            <IconArrowUp size={14} />
                          )
                        ) : (
                          <IconArrowsSort size={14} opacity={0.4} />
                        )}
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
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
                  {drawCell(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
