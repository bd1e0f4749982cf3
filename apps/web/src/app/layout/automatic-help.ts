import { UI_TIMINGS } from '@fleetgate/shared/constants';
import type { RouteDef } from '@fleetgate/shared/routes';
import { useEffect, useRef } from 'react';
import { useHelp } from '#src/components/page/help-context';
import { hasHelp } from '#src/features/help/help-content';
import { userStorage } from '#src/lib/storage/user-storage';

/** The help panels a user closed, kept per user on the server (product §7 Storage). */
export const HELP_DISMISSED_KEY = 'help.dismissed';

/**
 * product §2 Layout: a help-panel route opens its help by itself after 700 ms, unless the user
 * closed it there before; a route whose help text is not written yet (its screen is not
 * built) opens nothing. Answers what the panel's close records.
 */
export function useAutomaticHelp(chain: readonly RouteDef[]): (routeName: string) => void {
  const help = useHelp();
  const panelRoute = [...chain]
    .reverse()
    .find((route) => route.help === 'panel' && hasHelp(route.name))?.name;
  const open = useRef(help.open);
  open.current = help.open;
  useEffect(() => {
    if (!panelRoute) return;
    const timer = setTimeout(() => {
      const dismissed = userStorage.get<string[]>(HELP_DISMISSED_KEY, []);
      if (!dismissed.includes(panelRoute)) open.current(panelRoute);
    }, UI_TIMINGS.helpPanelWaitMs);
    return () => clearTimeout(timer);
  }, [panelRoute]);

  return (routeName) => {
    const dismissed = userStorage.get<string[]>(HELP_DISMISSED_KEY, []);
    if (routeName === panelRoute && !dismissed.includes(routeName))
      userStorage.set(HELP_DISMISSED_KEY, [...dismissed, routeName]);
  };
}
