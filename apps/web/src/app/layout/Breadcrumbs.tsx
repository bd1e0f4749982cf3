import { pathOf, type RouteDef } from '@fleetgate/shared/routes';
import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type Props = { chain: readonly RouteDef[]; params: Record<string, string | undefined> };

/** Breadcrumbs built from route names and titles (spec §2 Layout). */
export function Breadcrumbs({ chain, params }: Props) {
  const { t } = useTranslation('routes');
  const crumbs = chain.filter((route) => !route.tab || route === chain.at(-1));
  return (
    <nav aria-label="Breadcrumbs">
      <MantineBreadcrumbs separatorMargin={6} fz="sm">
        {crumbs.map((route, index) => {
          const last = index === crumbs.length - 1;
          let href: string | null = null;
          try {
            href = last ? null : pathOf(route.name, params);
          } catch {
            href = null;
          }
          return href ? (
            <Anchor key={route.name} component={Link} to={href} fz="sm">
              {t(route.name)}
            </Anchor>
          ) : (
            <Text
              key={route.name}
              fz="sm"
              c={last ? undefined : 'dimmed'}
              aria-current={last ? 'page' : undefined}
            >
              {t(route.name)}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </nav>
  );
}
