import { pathOf } from '@fleetgate/shared/routes';
import type { MantineTheme } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { badgeColours } from '#src/components/table/badge-colours';
import { CellName } from '#src/components/table/CellName';
import classes from '#src/components/table/cells.module.css';
import { RowCheckbox } from '#src/components/table/RowCheckbox';
import { tintedText } from '#src/lib/colour';
import { formatTime } from '#src/lib/time';
import type { DeviceItem } from '../api/types';
import { ModelPicture } from '../components/ModelPicture';
import { statusBadge } from '../components/StatusBadge';
import { formatSignal, formatTemperature, formatUptime, text } from '../utils/format';
import type { ColumnInfo } from '../utils/table-settings';

/** The columns of the devices table: id, whether it hides by default, and its server sort key. */
export const DEVICE_COLUMNS: readonly (ColumnInfo & { sort?: string })[] = [
  { id: 'select', locked: true },
  { id: 'name', locked: true, sort: 'name' },
  { id: 'status', sort: 'status' },
  { id: 'model', sort: 'model' },
  { id: 'serial', sort: 'serial' },
  { id: 'mac', sort: 'mac' },
  { id: 'imei', hiddenByDefault: true },
  { id: 'firmware', sort: 'firmware' },
  { id: 'company', sort: 'company_name' },
  { id: 'tags' },
  { id: 'signal' },
  { id: 'temperature', hiddenByDefault: true },
  { id: 'operator', hiddenByDefault: true },
  { id: 'wan_ip', hiddenByDefault: true },
  { id: 'uptime', hiddenByDefault: true },
  { id: 'last_seen_at', sort: 'last_seen_at' },
  { id: 'created_at', hiddenByDefault: true, sort: 'created_at' },
];

export const SORT_OF_COLUMN = Object.fromEntries(
  DEVICE_COLUMNS.filter((c) => c.sort).map((c) => [c.id, c.sort!]),
) as Record<string, string>;

/**
 * A cell's text; device-reported strings are rendered as text, never as markup (product §8
 * dash for invalid). The table gives it its size.
 */
const plain = (value: unknown) => text(value);

/**
 * The texts every row repeats, asked of i18next once per set of columns: fifty rows asking
 * for their status and checkbox labels were a tenth of the time the rows took to draw.
 */
function rowTexts(t: TFunction) {
  const statuses = new Map<string, string>();
  const status = (key: string) => {
    const known = statuses.get(key);
    if (known !== undefined) return known;
    const label = t(key);
    statuses.set(key, label);
    return label;
  };
  // The label's words around the name, from the translation itself (its place may differ
  // by language); the name goes in as it is, as i18next would put it (no escaping).
  const [before = '', after = ''] = t('table.selectRow', { name: '\u0000' }).split('\u0000');
  return { status, selectRow: (name: string) => `${before}${name}${after}` };
}

export function deviceColumns(
  t: TFunction,
  options: {
    companyLinks: boolean;
    modelName: (device: DeviceItem) => string | null;
    theme: MantineTheme;
  },
): ColumnDef<DeviceItem>[] {
  const texts = rowTexts(t);
  return [
    {
      id: 'select',
      header: ({ table }) => (
        <RowCheckbox
          aria-label={t('table.selectPage')}
          checked={table.getIsAllPageRowsSelected()}
          indeterminate={table.getIsSomePageRowsSelected()}
          onChange={(e) => table.toggleAllPageRowsSelected(e.currentTarget.checked)}
          data-testid="select-page"
        />
      ),
      cell: ({ row }) => (
        <RowCheckbox
          aria-label={texts.selectRow(row.original.name)}
          checked={row.getIsSelected()}
          onChange={(e) => row.toggleSelected(e.currentTarget.checked)}
          data-testid="select-row"
        />
      ),
    },
    {
      id: 'name',
      header: t('column.name'),
      cell: ({ row }) => (
        <span className={classes.nameCell}>
          <ModelPicture device={row.original} size={24} fromSprites />
          <CellName
            name={text(row.original.name)}
            to={pathOf('device.info', { id: row.original.id })}
            lines={1}
            maw="20rem"
            testId="device-link"
          />
        </span>
      ),
    },
    {
      id: 'status',
      header: t('column.status'),
      cell: ({ row }) => statusBadge(texts.status, row.original.status),
    },
    {
      id: 'model',
      header: t('column.model'),
      cell: ({ row }) => plain(options.modelName(row.original)),
    },
    { id: 'serial', header: t('column.serial'), cell: ({ row }) => plain(row.original.serial) },
    { id: 'mac', header: t('column.mac'), cell: ({ row }) => plain(row.original.mac) },
    { id: 'imei', header: t('column.imei'), cell: ({ row }) => plain(row.original.imei) },
    { id: 'firmware', header: t('column.firmware'), cell: ({ row }) => plain(row.original.firmware) },
    {
      id: 'company',
      header: t('column.company'),
      // A long company name is cut to one line; hovering shows it whole.
      cell: ({ row }) => (
        <CellName
          name={text(row.original.company_name)}
          to={
            options.companyLinks ? pathOf('company.info', { company_id: row.original.company_id }) : undefined
          }
          lines={1}
          maw="16rem"
        />
      ),
    },
    {
      id: 'tags',
      header: t('column.tags'),
      cell: ({ row }) =>
        row.original.tags?.length ? (
          <span className={classes.tags} data-testid="device-row-tags">
            {row.original.tags.map((tag) => (
              <span
                key={tag.id}
                className={classes.badge}
                data-size="sm"
                title={tag.name}
                // Mantine's light badge of a colour outside the theme: a tenth of it behind text
                // moved until it reads (app/theme.ts). Tag colours are #RRGGBB (shared schema).
                style={badgeColours(`${tag.color}1a`, tintedText(tag.color, options.theme))}
              >
                <span className={classes.badgeLabel}>{tag.name}</span>
              </span>
            ))}
          </span>
        ) : (
          plain(null)
        ),
    },
    { id: 'signal', header: t('column.signal'), cell: ({ row }) => plain(formatSignal(row.original.signal)) },
    {
      id: 'temperature',
      header: t('column.temperature'),
      cell: ({ row }) => plain(formatTemperature(row.original.temperature)),
    },
    { id: 'operator', header: t('column.operator'), cell: ({ row }) => plain(row.original.operator) },
    { id: 'wan_ip', header: t('column.wan_ip'), cell: ({ row }) => plain(row.original.wan_ip) },
    { id: 'uptime', header: t('column.uptime'), cell: ({ row }) => plain(formatUptime(row.original.uptime)) },
    {
      id: 'last_seen_at',
      header: t('column.last_seen_at'),
      cell: ({ row }) => plain(formatTime(row.original.last_seen_at)),
    },
    {
      id: 'created_at',
      header: t('column.created_at'),
      cell: ({ row }) => plain(formatTime(row.original.created_at)),
    },
  ];
}
