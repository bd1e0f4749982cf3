import { lazy } from 'react';
import type { PageMap } from './router/RouteScreen';

/** Screens by route name. A route without one shows its frame (title, breadcrumbs, help, tabs). */
export const PAGES: PageMap = {
  logout: lazy(() => import('../features/account/LogoutPage').then((m) => ({ default: m.LogoutPage }))),
  notfound: lazy(() => import('./NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
};
