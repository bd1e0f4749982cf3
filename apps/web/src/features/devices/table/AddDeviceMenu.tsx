import { Menu } from '@mantine/core';
import { IconFileUpload, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OverlayProps } from '#src/components/overlay/Deferred';

export type AddWindow = 'addDevice' | 'addDeviceFromFile';

/** The 'Add' menu of the devices table, loaded with its first use (DevicesToolbar). */
export function AddDeviceMenu({
  opened,
  onChange,
  target,
  onAdd,
}: OverlayProps & { onAdd(name: AddWindow): void }) {
  const { t } = useTranslation('devices');
  return (
    <Menu opened={opened} onChange={onChange} position="bottom-end" withinPortal>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => onAdd('addDevice')}>
          {t('add.title')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileUpload size={16} />} onClick={() => onAdd('addDeviceFromFile')}>
          {t('import.title')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
