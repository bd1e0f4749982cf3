import { ActionIcon, Button, Checkbox, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import {
  type ColumnInfo,
  DENSITIES,
  type Density,
  defaultSettings,
  moveColumn,
  toggleColumn,
} from '../utils/table-settings';
import { useTableSettings } from './use-table-settings';

export type TableSettingsProps = {
  /** The per-user storage key of the table (product §7 Storage). */
  storageKey: string;
  columns: readonly (ColumnInfo & { label: string })[];
};

/** The 'table settings' dialog of product §2: column visibility, order and row density. */
export function TableSettingsDialog({ storageKey, columns }: TableSettingsProps) {
  const { t } = useTranslation('devices');
  const window = useWindow();
  const [settings, store] = useTableSettings(storageKey, columns);
  const label = (id: string) => columns.find((c) => c.id === id)?.label ?? id;
  const locked = new Set(columns.filter((c) => c.locked).map((c) => c.id));
  const movable = settings.order.filter((id) => !locked.has(id));

  return (
    <Stack data-testid="table-settings">
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('settings.density')}
        </Text>
        <SegmentedControl
          value={settings.density}
          onChange={(value) => store({ ...settings, density: value as Density })}
          data={DENSITIES.map((d) => ({ value: d, label: t(`settings.density.${d}`) }))}
          data-testid="density-control"
        />
      </Stack>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('settings.columns')}
        </Text>
        {movable.map((id, index) => (
          <Group
            key={id}
            justify="space-between"
            wrap="nowrap"
            data-testid="settings-column"
            data-column={id}
          >
            <Checkbox
              label={label(id)}
              checked={!settings.hidden.includes(id)}
              onChange={(e) => store(toggleColumn(settings, id, e.currentTarget.checked))}
            />
            <Group gap={2} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={t('settings.moveUp', { column: label(id) })}
                disabled={index === 0}
                onClick={() => store(moveColumn(settings, id, -1, columns))}
              >
                <IconArrowUp size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={t('settings.moveDown', { column: label(id) })}
                disabled={index === movable.length - 1}
                onClick={() => store(moveColumn(settings, id, 1, columns))}
              >
                <IconArrowDown size={16} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
      </Stack>
      <Group justify="space-between">
        <Button variant="subtle" onClick={() => store(defaultSettings(columns))}>
          {t('settings.reset')}
        </Button>
        <Button onClick={() => window?.close()}>{t('settings.done')}</Button>
      </Group>
    </Stack>
  );
}
