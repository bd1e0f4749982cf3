import { BULK_SERVICE_MAX } from '@fleetgate/shared/resources';
import { Anchor, Button, Group, Menu, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconCirclePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { failureMessage } from '#src/lib/http/results';
import { useSession } from '#src/lib/session/session-context';
import { fetchMatchingDevices } from '../api/devices';
import type { DeviceFilters } from '../api/types';
import { ACTION_DIALOGS } from '../dialogs';
import { BULK_MAX_DEVICES } from '../utils/constants';

type Props = {
  filters: DeviceFilters;
  selectedIds: number[];
  /** Every device matching the filter is selected, not only the checked rows. */
  allMatching: boolean;
  total: number;
  names: ReadonlyMap<number, string>;
  onSelectAll(all: boolean): void;
  onClear(): void;
};

/**
 * The selection and its bulk actions: the device commands of manage_devices (product §7
 * `{action, device_id[]}`, each with a result per device), tags, and 'Manage services' of
 * update_device_credit_status (one unit per device, all or none, at most 100 devices).
 */
export function BulkBar({ filters, selectedIds, allMatching, total, names, onSelectAll, onClear }: Props) {
  const { t } = useTranslation('devices');
  const windows = useWindows();
  const { can } = useSession();
  const [loading, setLoading] = useState(false);
  const count = allMatching ? Math.min(total, BULK_MAX_DEVICES) : selectedIds.length;

  async function targets() {
    if (!allMatching) return selectedIds.map((id) => ({ id, name: names.get(id) ?? `#${id}` }));
    const { devices } = await fetchMatchingDevices(filters, BULK_MAX_DEVICES);
    return devices;
  }

  const manage = can('manage_devices');
  const services = can('update_device_credit_status');
  const tooManyForServices = count > BULK_SERVICE_MAX;

  async function open(name: keyof typeof ACTION_DIALOGS | 'device.manageTags' | 'device.bulkServices') {
    setLoading(true);
    try {
      const devices = await targets();
      windows.openNamed(name, { devices }, { id: `bulk:${name}` });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'get', 'devices') });
    } finally {
      setLoading(false);
    }
  }

  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Group justify="space-between">
        <Group gap="sm">
          <Text size="sm" fw={500} data-testid="bulk-count">
            {allMatching ? t('bulk.allMatching', { count }) : t('bulk.selected', { count })}
          </Text>
          {!allMatching && total > selectedIds.length && (
            <Anchor
              component="button"
              size="sm"
              onClick={() => onSelectAll(true)}
              data-testid="select-all-matching"
            >
              {t('bulk.selectAll', { count: Math.min(total, BULK_MAX_DEVICES) })}
            </Anchor>
          )}
          {allMatching && total > BULK_MAX_DEVICES && (
            <Text size="sm" c="orange">
              {t('bulk.limit', { max: BULK_MAX_DEVICES })}
            </Text>
          )}
          <Anchor component="button" size="sm" c="dimmed" onClick={onClear}>
            {t('bulk.clear')}
          </Anchor>
        </Group>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              size="xs"
              rightSection={<IconChevronDown size={14} />}
              loading={loading}
              data-testid="bulk-actions"
            >
              {t('bulk.actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {services && (
              <Menu.Item
                leftSection={<IconCirclePlus size={16} />}
                disabled={tooManyForServices}
                onClick={() => void open('device.bulkServices')}
                data-action="services"
              >
                {t('services.manage')}
                {tooManyForServices && (
                  <Text size="xs" c="dimmed" data-testid="bulk-services-limit">
                    {t('services.bulk.limit', { max: BULK_SERVICE_MAX })}
                  </Text>
                )}
              </Menu.Item>
            )}
            {services && manage && <Menu.Divider />}
            {manage &&
              (Object.entries(ACTION_DIALOGS) as [keyof typeof ACTION_DIALOGS, string][]).map(
                ([name, action]) => (
                  <Menu.Item
                    key={name}
                    color={action === 'unregister' ? 'red' : undefined}
                    onClick={() => void open(name)}
                    data-action={action}
                  >
                    {t(`action.${action}`)}
                  </Menu.Item>
                ),
              )}
            {manage && can('manage_tags') && (
              <Menu.Item onClick={() => void open('device.manageTags')} data-action="tags">
                {t('tags.title')}
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}
