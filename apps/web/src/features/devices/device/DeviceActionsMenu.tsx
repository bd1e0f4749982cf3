import { pathOf } from '@fleetgate/shared/routes';
import { Button, Menu } from '@mantine/core';
import {
  IconArrowsExchange,
  IconChevronDown,
  IconCirclePlus,
  IconClockHour4,
  IconDownload,
  IconKey,
  IconPackage,
  IconPencil,
  IconRefresh,
  IconTags,
  IconTerminal2,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DialogName } from '#src/lib/dialogs/registry';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useSession } from '#src/lib/session/session-context';
import type { DeviceDetail } from '../api/types';

/** The permissions that give the device page its actions menu: one of them is enough. */
export const DEVICE_ACTION_PERMISSIONS = [
  'manage_devices',
  'update_device_credit_status',
  'move_devices_credits',
] as const;

/**
 * The device's actions (product §2 device dialogs): each opens its named dialog;
 * those that reach the device answer with a channel and 'Action status' follows them.
 */
export function DeviceActionsMenu({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const windows = useWindows();
  const { can } = useSession();
  const form = { id: device.id, name: device.name };
  const open = (name: DialogName, props: Record<string, unknown>) =>
    windows.openNamed(name, props, { id: `${name}:${device.id}` });
  const manage = can('manage_devices');
  const services = can('update_device_credit_status');
  const move = can('move_devices_credits');

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button rightSection={<IconChevronDown size={14} />} data-testid="device-actions">
          {t('device.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {services && (
          <>
            <Menu.Item
              leftSection={<IconCirclePlus size={16} />}
              onClick={() => open('device.manageServices', form)}
            >
              {t('services.manage')}
            </Menu.Item>
            <Menu.Item leftSection={<IconPackage size={16} />} onClick={() => open('device.pack', form)}>
              {t('services.pack')}
            </Menu.Item>
          </>
        )}
        {move && (
          <Menu.Item
            leftSection={<IconArrowsExchange size={16} />}
            onClick={() => open('device.moveResources', form)}
          >
            {t('move.title')}
          </Menu.Item>
        )}
        {(services || move) && manage && <Menu.Divider />}
        {manage && <DeviceManageItems device={device} open={open} />}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The actions of manage_devices: the device's commands, its info, tags, exports and unregistering. */
function DeviceManageItems({
  device,
  open,
}: {
  device: DeviceDetail;
  open(name: DialogName, props: Record<string, unknown>): void;
}) {
  const { t } = useTranslation('devices');
  const { can } = useSession();
  const navigate = useNavigate();
  const one = { devices: [{ id: device.id, name: device.name }] };
  const form = { id: device.id, name: device.name };
  return (
    <>
      <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => open('device.reboot', one)}>
        {t('action.reboot')}
      </Menu.Item>
      <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => open('device.updateInfo', form)}>
        {t('updateInfo.title')}
      </Menu.Item>
      <Menu.Item leftSection={<IconKey size={16} />} onClick={() => open('device.passwordManager', form)}>
        {t('password.title')}
      </Menu.Item>
      <Menu.Item
        leftSection={<IconClockHour4 size={16} />}
        onClick={() => open('device.monitoringPeriod', { ...one, period: device.monitoring_period })}
      >
        {t('action.monitoring_period')}
      </Menu.Item>
      <Menu.Item leftSection={<IconTerminal2 size={16} />} onClick={() => open('device.cli', form)}>
        {t('cli.title')}
      </Menu.Item>
      {can('manage_tags') && (
        <Menu.Item leftSection={<IconTags size={16} />} onClick={() => open('device.manageTags', one)}>
          {t('tags.title')}
        </Menu.Item>
      )}
      <Menu.Divider />
      <Menu.Item leftSection={<IconDownload size={16} />} onClick={() => open('device.exportBackup', one)}>
        {t('action.export_backup')}
      </Menu.Item>
      <Menu.Item leftSection={<IconDownload size={16} />} onClick={() => open('device.exportEventLogs', one)}>
        {t('action.export_event_log')}
      </Menu.Item>
      <Menu.Item
        leftSection={<IconDownload size={16} />}
        onClick={() => open('device.exportTroubleshoot', one)}
      >
        {t('action.export_troubleshoot')}
      </Menu.Item>
      <Menu.Divider />
      <Menu.Item
        color="red"
        leftSection={<IconTrash size={16} />}
        onClick={() =>
          open('device.unregister', {
            ...one,
            onDone: () => navigate(pathOf('management.devices'), { replace: true }),
          })
        }
      >
        {t('action.unregister')}
      </Menu.Item>
    </>
  );
}
