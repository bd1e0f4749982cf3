import type { RouteDef } from '@fleetgate/shared/routes';
import { ActionIcon, Stack, Title } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Tip } from '#src/components/overlay/Tip';
import { hasHelp } from '#src/features/help/help-content';
import { Breadcrumbs, type CrumbNames } from './Breadcrumbs';
import { useHelp } from './help-context';
import classes from './PageFrame.module.css';
import { PageTabs } from './PageTabs';

type Props = {
  chain: readonly RouteDef[];
  params: Record<string, string | undefined>;
  /** Overrides the route title (a device's name, a company's name). */
  title?: ReactNode;
  /** The names of the things routes of the chain stand for, for the breadcrumbs. */
  names?: CrumbNames;
  actions?: ReactNode;
  children?: ReactNode;
};

/** The frame every page lives in: breadcrumbs, title, help link, tabs (product §2 Layout). */
export function PageFrame({ children, ...head }: Props) {
  return (
    <Stack gap="sm" data-testid="page-frame" data-route={head.chain.at(-1)?.name}>
      <PageHead {...head} />
      <div data-testid="page-body">{children}</div>
    </Stack>
  );
}

/**
 * Breadcrumbs, title, help link, actions and tabs: drawn again only when one of them changes,
 * not each time the page's content does (a table's rows arriving).
 */
const PageHead = memo(function PageHead({ chain, params, title, names, actions }: Omit<Props, 'children'>) {
  const { t } = useTranslation('routes');
  const { t: ts } = useTranslation('shell');
  const help = useHelp();
  const titled = [...chain].reverse().find((route) => !route.tab) ?? chain.at(-1);
  // Help ships with its screen: a route whose text is not written yet offers none.
  const helpRoute = [...chain].reverse().find((route) => route.help && hasHelp(route.name));
  const heading = title ?? (titled ? t(titled.name) : '');
  // A name as title: at most three lines, the whole of it on hover.
  const named = typeof heading === 'string' ? { lineClamp: 3, title: heading } : {};
  return (
    <>
      <Breadcrumbs chain={chain} params={params} names={names} />
      <div className={classes.head}>
        <div className={classes.heading}>
          <Title order={2} className={classes.title} {...named}>
            {heading}
          </Title>
          {helpRoute && (
            <Tip label={ts('help.open')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={ts('help.open')}
                onClick={() => help.open(helpRoute.name)}
                className={classes.help}
              >
                <IconHelpCircle size={20} />
              </ActionIcon>
            </Tip>
          )}
        </div>
        {actions && <div className={classes.actions}>{actions}</div>}
      </div>
      <PageTabs chain={chain} params={params} />
    </>
  );
});
