import { isRouteName, pathOf, type RouteDef, tabsOf } from '@fleetgate/shared/routes';
import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { canEnter } from '#src/lib/routing/guards';
import { useSession } from '#src/lib/session/session-context';

type Props = { chain: readonly RouteDef[]; params: Record<string, string | undefined> };

/** Tab strips for every level of the chain that has tabs (company → users → invitations). */
export function PageTabs({ chain, params }: Props) {
  const { t } = useTranslation('routes');
  const navigate = useNavigate();
  const { user, brand } = useSession();
  const access = { permissions: user.permissions, disabledRoutes: brand.disabled_routes };
  const strips = chain
    .map((route, index) => ({ owner: route, active: chain[index + 1] }))
    .filter(({ active }) => active?.tab)
    .map(({ owner, active }) => ({
      active: active!,
      tabs: tabsOf(owner.name).filter((tab) => canEnter(tab, access)),
    }))
    .filter(({ tabs }) => tabs.length > 1);
  return strips.map(({ active, tabs }) => (
    <Tabs
      key={active.name}
      value={active.name}
      onChange={(name) => name && isRouteName(name) && navigate(pathOf(name, params))}
      mb="md"
      keepMounted={false}
    >
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.name} value={tab.name}>
            {t(tab.name)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  ));
}
