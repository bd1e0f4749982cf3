import { ActionIcon, Burger, Group } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Tip } from '#src/components/overlay/Tip';
import { AccountWidget } from '#src/features/account-widget/AccountWidget';
import { NoticesIndicator } from '#src/features/notices/components/NoticesIndicator';
import { NotificationsBell } from '#src/features/notifications/components/NotificationsBell';
import { SearchButton } from '#src/features/search/components/SearchButton';

type Props = {
  wide: boolean;
  onToggleWide(): void;
  mobileOpen: boolean;
  onToggleMobile(): void;
};

/** The header of product §2: navigation toggles on the left, the widgets on the right. */
export function Header({ wide, onToggleWide, mobileOpen, onToggleMobile }: Props) {
  const { t } = useTranslation('shell');
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap">
        <Burger
          opened={mobileOpen}
          onClick={onToggleMobile}
          hiddenFrom="sm"
          size="sm"
          aria-label={t('nav.toggle')}
        />
        <Tip label={wide ? t('nav.collapse') : t('nav.expand')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            visibleFrom="sm"
            onClick={onToggleWide}
            aria-label={wide ? t('nav.collapse') : t('nav.expand')}
          >
            {wide ? <IconLayoutSidebarLeftCollapse size={20} /> : <IconLayoutSidebarLeftExpand size={20} />}
          </ActionIcon>
        </Tip>
      </Group>
      <Group gap="xs" wrap="nowrap" data-testid="header-widgets">
        <SearchButton />
        <NotificationsBell />
        <NoticesIndicator />
        <AccountWidget />
      </Group>
    </Group>
  );
}
