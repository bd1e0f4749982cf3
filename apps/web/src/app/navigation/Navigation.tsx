import { pathOf } from '@fleetgate/shared/routes';
import { Box, Collapse, NavLink, UnstyledButton } from '@mantine/core';
import {
  IconAdjustments,
  IconBuildingCommunity,
  IconChevronRight,
  IconDevices,
  IconPlugConnected,
  type IconProps,
  IconShieldLock,
} from '@tabler/icons-react';
import { type ComponentType, type MouseEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Tip } from '#src/components/overlay/Tip';
import { useCurrentRoute } from '#src/lib/routing/current-route';
import { useSession } from '#src/lib/session/session-context';
import classes from './Navigation.module.css';
import { NAV_GROUPS } from './nav-config';
import { isActive, type VisibleChild, visibleNavigation } from './resolve';

const ICONS: Record<string, ComponentType<IconProps>> = {
  devices: IconDevices,
  connect: IconPlugConnected,
  vpn: IconShieldLock,
  administration: IconBuildingCommunity,
  system: IconAdjustments,
};

type Props = {
  wide: boolean;
  /** Called when an entry is followed (closes the mobile overlay). */
  onNavigate(): void;
  /** Clicking the link of the current route reloads the page (product §2 Navigation). */
  onReload(): void;
};

/** The side navigation of product §2: five groups, gated entries, collapsible groups. */
export function Navigation({ wide, onNavigate, onReload }: Props) {
  const { t } = useTranslation('shell');
  const { user, brand } = useSession();
  const current = useCurrentRoute();
  const groups = useMemo(
    () =>
      visibleNavigation(NAV_GROUPS, { permissions: user.permissions, disabledRoutes: brand.disabled_routes }),
    [user.permissions, brand.disabled_routes],
  );
  const state = { routeName: current.name, matchedNames: current.matchedNames, params: current.params };
  const activeGroup = groups.find((g) => g.children.some((c) => isActive(c, state)))?.name;
  const [open, setOpen] = useState<Record<string, boolean>>({});
  // The active group is open (product §2): opening follows the route, the user may close it again.
  useEffect(() => {
    if (activeGroup) setOpen((o) => ({ ...o, [activeGroup]: true }));
  }, [activeGroup]);

  const follow = (child: VisibleChild) => (event: MouseEvent) => {
    if (child.resolvedRoute === current.name) {
      event.preventDefault();
      onReload();
    }
    onNavigate();
  };

  return (
    // A plain scrolling element: Mantine's ScrollArea measured itself again, and was drawn
    // again, whenever the page beside it changed height (a table's rows arriving).
    <nav aria-label={t('nav.label')} className={classes.nav} data-wide={wide || undefined}>
      {groups.map((group) => {
        const Icon = ICONS[group.icon] ?? IconDevices;
        const isOpen = open[group.name] ?? false;
        if (!wide) {
          return (
            <Box key={group.name} className={classes.collapsedGroup}>
              <Tip label={t(group.name)} position="right">
                <UnstyledButton
                  component={Link}
                  to={pathOf(group.children[0]!.resolvedRoute, group.children[0]!.params)}
                  className={classes.iconButton}
                  data-active={group.name === activeGroup || undefined}
                  aria-label={t(group.name)}
                  data-testid={`nav-group-${group.icon}`}
                  onClick={follow(group.children[0]!)}
                >
                  <Icon size={22} stroke={1.6} />
                </UnstyledButton>
              </Tip>
            </Box>
          );
        }
        return (
          <Box key={group.name}>
            <NavLink
              component="button"
              label={t(group.name)}
              leftSection={<Icon size={20} stroke={1.6} />}
              rightSection={
                <IconChevronRight size={14} className={classes.chevron} data-open={isOpen || undefined} />
              }
              onClick={() => setOpen((o) => ({ ...o, [group.name]: !isOpen }))}
              aria-expanded={isOpen}
              className={classes.group}
              data-testid={`nav-group-${group.icon}`}
            />
            <Collapse expanded={isOpen}>
              <Box pl={30} data-testid={`nav-items-${group.icon}`}>
                {group.children.map((child) => (
                  <NavLink
                    key={child.name}
                    component={Link}
                    to={pathOf(child.resolvedRoute, child.params)}
                    label={t(child.resolvedName)}
                    active={isActive(child, state)}
                    onClick={follow(child)}
                    aria-current={isActive(child, state) ? 'page' : undefined}
                    className={classes.entry}
                  />
                ))}
              </Box>
            </Collapse>
          </Box>
        );
      })}
    </nav>
  );
}
