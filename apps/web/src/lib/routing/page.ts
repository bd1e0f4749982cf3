import type { RouteDef } from '@fleetgate/shared/routes';
import type { ComponentType } from 'react';

/** What the console hands the screen of a route: the route, its chain of ancestors and the address's params. */
export type PageProps = { route: RouteDef; chain: RouteDef[]; params: Record<string, string | undefined> };

/** The screen of a route, loaded when the route is first entered. */
export type PageLoader = () => Promise<ComponentType<PageProps>>;
