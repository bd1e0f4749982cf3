import { ActionIcon, Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAdjustmentsHorizontal, IconChevronDown, IconFileDownload, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '#src/components/overlay/Deferred';
import { Tip } from '#src/components/overlay/Tip';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { downloadFile } from '#src/lib/http/download';
import { failureMessage } from '#src/lib/http/results';
import { useSession } from '#src/lib/session/session-context';
import { companyOptionsQuery, filterQuery } from '../api/devices';
import type { DeviceFilters } from '../api/types';
import type { AddWindow } from './AddDeviceMenu';
import { DEVICE_COLUMNS } from './columns';

type Props = { filters: DeviceFilters; sort: string; canManage: boolean };

/** The table's page actions: add devices, CSV export of the filtered list, table settings. */
export const DevicesToolbar = memo(function DevicesToolbar({ filters, sort, canManage }: Props) {
  const { t } = useTranslation('devices');
  const { can } = useSession();
  const windows = useWindows();
  const [exporting, setExporting] = useState(false);
  const [adding, setAdding] = useState(false);
  const queryClient = useQueryClient();
  const seesCompanies = can('view_companies');

  // The add windows' company choice, fetched when one opens (the landing does not wait for it).
  async function openAddWindow(name: AddWindow, id: string) {
    let companies: { value: string; label: string }[] = [];
    if (seesCompanies) {
      try {
        const list = await queryClient.fetchQuery(companyOptionsQuery());
        companies = list.map((c) => ({ value: String(c.id), label: c.name }));
      } catch (error) {
        notifications.show({ color: 'red', message: failureMessage(error, 'get', 'companies') });
        return;
      }
    }
    windows.openNamed(name, { companies }, { id });
  }

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadFile('/devices/export', {
        query: { ...filterQuery(filters), sort },
        fallbackName: 'devices.csv',
      });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'export', 'devices') });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFileDownload size={16} />}
        loading={exporting}
        onClick={() => void exportCsv()}
        data-testid="devices-export"
      >
        {t('table.export')}
      </Button>
      <Tip label={t('settings.title')}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('settings.title')}
          data-testid="table-settings-open"
          onClick={() =>
            windows.openNamed(
              'tableSettings',
              {
                storageKey: 'table.devices',
                columns: DEVICE_COLUMNS.map((c) => ({ ...c, label: t(`column.${c.id}`) })),
              },
              { id: 'table-settings:devices' },
            )
          }
        >
          <IconAdjustmentsHorizontal size={18} />
        </ActionIcon>
      </Tip>
      {canManage && (
        <Deferred
          load={() => import('./AddDeviceMenu').then((m) => m.AddDeviceMenu)}
          opened={adding}
          onChange={setAdding}
          popup="menu"
          props={{
            onAdd: (name: AddWindow) =>
              void openAddWindow(name, name === 'addDevice' ? 'add-device' : 'add-device-file'),
          }}
          target={
            <Button
              leftSection={<IconPlus size={16} />}
              rightSection={<IconChevronDown size={14} />}
              data-testid="add-device-menu"
            >
              {t('add.button')}
            </Button>
          }
        />
      )}
    </Group>
  );
});
