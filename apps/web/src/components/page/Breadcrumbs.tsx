import { pathOf, type RouteDef } from '@fleetgate/shared/routes';
import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Breadcrumbs.module.css';

/** Names that replace route titles in the trail (`device.info` → the device's name). */
export type CrumbNames = Partial<Record<string, string>>;

type Props = { chain: readonly RouteDef[]; params: Record<string, string | undefined>; names?: CrumbNames };

/**
 * Breadcrumbs built from route names and titles (product §2 Layout); a route that stands for
 * one thing (a device, a company) is named after it once the page knows it.
 */
export function Breadcrumbs({ chain, params, names = {} }: Props) {
  const { t } = useTranslation('routes');
  const crumbs = chain.filter((route) => !route.tab || route === chain.at(-1));
  return (
    <nav aria-label="Breadcrumbs" data-testid="breadcrumbs">
      <MantineBreadcrumbs separatorMargin={6} fz="sm">
        {crumbs.map((route, index) => {
          const last = index === crumbs.length - 1;
          const label = names[route.name] || t(route.name);
          let href: string | null = null;
          try {
            href = last ? null : pathOf(route.name, params);
          } catch {
            href = null;
          }
          const common = {
            className: classes.crumb,
            title: label,
            'data-testid': `breadcrumb-${route.name}`,
          };
          return href ? (
            <Anchor key={route.name} component={Link} to={href} fz="sm" {...common}>
              {label}
            </Anchor>
          ) : (
            <Text
              key={route.name}
              fz="sm"
              c={last ? undefined : 'dimmed'}
              aria-current={last ? 'page' : undefined}
              {...common}
            >
              {label}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </nav>
  );
}
