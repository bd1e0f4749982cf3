import { ROUTES } from '@fleetgate/shared/routes';
import { lazy } from 'react';
import type { PageMap } from './router/RouteScreen';

/** The tab routes under company.info (product §2), all drawn by the company page. */
const COMPANY_TABS = ROUTES.filter(
  (route) => route.name.startsWith('company.') && route.path?.startsWith('/companies/:company_id/'),
).map((route) => route.name);

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
  'management.devices': lazy(() =>
    import('../features/devices/table/DevicesPage').then((m) => ({ default: m.DevicesPage })),
  ),
  'device.activity': lazy(() =>
    import('../features/devices/device/ActivityTab').then((m) => ({ default: m.ActivityTab })),
  ),
  'device.location': lazy(() =>
    import('../features/devices/device/LocationTab').then((m) => ({ default: m.LocationTab })),
  ),
  'device.data-usage': lazy(() =>
    import('../features/devices/device/DataUsageTab').then((m) => ({ default: m.DataUsageTab })),
  ),
  'device.ports': lazy(() =>
    import('../features/devices/device/PortsTab').then((m) => ({ default: m.PortsTab })),
  ),
  ...Object.fromEntries(
    ['dynamic', 'mobile-data', 'io', 'gps'].map((kind) => [
      `device.metrics.${kind}`,
      lazy(() => import('../features/devices/device/MetricsTab').then((m) => ({ default: m.MetricsTab }))),
    ]),
  ),
  'users.companies': lazy(() =>
    import('../features/companies/CompaniesPage').then((m) => ({ default: m.CompaniesPage })),
  ),
  'company.tree': lazy(() =>
    import('../features/companies/CompanyTreePage').then((m) => ({ default: m.CompanyTreePage })),
  ),
  // Every tab of company.info shows the company header; the tab body is chosen by route name.
  ...Object.fromEntries(
    COMPANY_TABS.map((name) => [
      name,
      lazy(() => import('../features/companies/CompanyPage').then((m) => ({ default: m.CompanyPage }))),
    ]),
  ),
  'users.roles': lazy(() => import('../features/roles/RolesPage').then((m) => ({ default: m.RolesPage }))),
  'tags.main': lazy(() => import('../features/tags/TagsPage').then((m) => ({ default: m.TagsPage }))),
  'management.tag_chart': lazy(() =>
    import('../features/tags/TagChartPage').then((m) => ({ default: m.TagChartPage })),
  ),
  'users.table': lazy(() => import('../features/users/UsersPage').then((m) => ({ default: m.UsersPage }))),
  'users.invitations': lazy(() =>
    import('../features/users/InvitationsPage').then((m) => ({ default: m.InvitationsPage })),
  ),
  'users.move-logs': lazy(() =>
    import('../features/users/MoveLogsPage').then((m) => ({ default: m.MoveLogsPage })),
  ),
  'mail.logs': lazy(() => import('../features/mail/MailLogsPage').then((m) => ({ default: m.MailLogsPage }))),
  'email-smtp': lazy(() => import('../features/mail/SmtpPage').then((m) => ({ default: m.SmtpPage }))),
  'users.impersonation-logs': lazy(() =>
    import('../features/impersonation/ImpersonationLogsPage').then((m) => ({
      default: m.ImpersonationLogsPage,
    })),
  ),
  'impersonation.access': lazy(() =>
    import('../features/impersonation/ConfirmAccessPage').then((m) => ({ default: m.ConfirmAccessPage })),
  ),
  form: lazy(() =>
    import('../features/forms-route/FormRoutePage').then((m) => ({ default: m.FormRoutePage })),
  ),
};
