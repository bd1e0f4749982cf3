import type { RouteDef } from '@fleetgate/shared/routes';
import { ActionIcon, Group, Stack, Title, Tooltip } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { helpFor } from '../../features/help/help-content';
import { Breadcrumbs } from './Breadcrumbs';
import { useHelp } from './help-context';
import { PageTabs } from './PageTabs';

type Props = {
  chain: readonly RouteDef[];
  params: Record<string, string | undefined>;
  /** Overrides the route title (a device's name, a company's name). */
  title?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
};

/** The frame every page lives in: breadcrumbs, title, help link, tabs (spec §2 Layout). */
export function PageFrame({ chain, params, title, actions, children }: Props) {
  const { t } = useTranslation('routes');
  const { t: ts } = useTranslation('shell');
  const help = useHelp();
  const titled = [...chain].reverse().find((route) => !route.tab) ?? chain.at(-1);
  // Help ships with its screen: a route whose text is not written yet offers none.
  const helpRoute = [...chain].reverse().find((route) => route.help && helpFor(route.name));
  return (
    <Stack gap="sm" data-testid="page-frame" data-route={chain.at(-1)?.name}>
      <Breadcrumbs chain={chain} params={params} />
      <Group justify="space-between" align="center" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Title order={2}>{title ?? (titled ? t(titled.name) : '')}</Title>
          {helpRoute && (
            <Tooltip label={ts('help.open')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={ts('help.open')}
                onClick={() => help.open(helpRoute.name)}
              >
                <IconHelpCircle size={20} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        {actions}
      </Group>
      <PageTabs chain={chain} params={params} />
      <div data-testid="page-body">{children}</div>
    </Stack>
  );
}
