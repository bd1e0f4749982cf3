import { ROUTES, type RouteName, routeChain } from '@fleetgate/shared/routes';
import { useMemo } from 'react';
import { matchRoutes, useLocation } from 'react-router';

/** The route table's paths, matched the way the router matches them (its ranking). */
const PATHS = ROUTES.filter((route) => route.path).map((route) => ({ path: route.path, name: route.name }));

/** The route of the table an address names, with its params; none for an address outside it. */
export function routeAt(pathname: string): {
  name: RouteName | '';
  params: Record<string, string | undefined>;
} {
  const match = matchRoutes(PATHS, pathname)?.[0];
  return { name: match?.route.name ?? '', params: match?.params ?? {} };
}

/** The route the user is on, its chain of ancestors and params. */
export function useCurrentRoute() {
  const { pathname } = useLocation();
  return useMemo(() => {
    const { name, params } = routeAt(pathname);
    const chain = name ? routeChain(name) : [];
    return { name, chain, matchedNames: chain.map((r) => r.name), params };
  }, [pathname]);
}
