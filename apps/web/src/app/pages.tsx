import { lazy } from 'react';
import type { PageMap } from './router/RouteScreen';

/** Screens by route name. A route without one shows its frame (title, breadcrumbs, help, tabs). */
export const PAGES: PageMap = {
  changelog: lazy(() =>
    import('../features/changelog/ChangelogPage').then((m) => ({ default: m.ChangelogPage })),
  ),
  logout: lazy(() => import('../features/account/LogoutPage').then((m) => ({ default: m.LogoutPage }))),
  notfound: lazy(() => import('./NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
  'notifications.main': lazy(() =>
    import('../features/notifications/NotificationsPage').then((m) => ({ default: m.NotificationsPage })),
  ),
  'notices.global': lazy(() =>
    import('../features/notices/NoticesAdminPage').then((m) => ({ default: m.NoticesAdminPage })),
  ),
  form: lazy(() =>
    import('../features/forms-route/FormRoutePage').then((m) => ({ default: m.FormRoutePage })),
  ),
};
