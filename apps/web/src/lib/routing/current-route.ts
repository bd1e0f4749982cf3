import { type RouteName, routeChain } from '@fleetgate/shared/routes';
import { useMatches, useParams } from 'react-router';

/** What each react-router route of the table carries: its name in the table. */
export type RouteHandle = { name: RouteName };

/** The route the user is on, its chain of ancestors and params. */
export function useCurrentRoute() {
  const matches = useMatches();
  const params = useParams();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.name)?.handle as
    | RouteHandle
    | undefined;
  const name: RouteName | '' = handle?.name ?? '';
  const chain = name ? routeChain(name) : [];
  return { name, chain, matchedNames: chain.map((r) => r.name), params };
}
