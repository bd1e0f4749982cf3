import { Menu, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconMoon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DARK_MODES, modeOf, schemeOf } from '../preferences/dark-mode';

/** The Dark mode sub-menu of product §2 and §4: Auto (follows the system), Enable, Disable. */
export function DarkModeMenu() {
  const { t } = useTranslation('preferences');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = modeOf(colorScheme);
  return (
    <Menu.Sub position="left-start">
      <Menu.Sub.Target>
        <Menu.Sub.Item leftSection={<IconMoon size={16} />} data-testid="menu-dark-mode">
          {t('darkMode.title')}
        </Menu.Sub.Item>
      </Menu.Sub.Target>
      <Menu.Sub.Dropdown>
        {DARK_MODES.map((mode) => (
          <Menu.Item
            key={mode}
            onClick={() => setColorScheme(schemeOf(mode))}
            rightSection={mode === current ? <IconCheck size={14} /> : null}
            aria-current={mode === current || undefined}
            data-dark-mode={mode}
          >
            {t(`darkMode.${mode}`)}
          </Menu.Item>
        ))}
      </Menu.Sub.Dropdown>
    </Menu.Sub>
  );
}
