import type { Permission } from './permissions';

/** A page transition named by route meta (product §2 Layout); 'toRight' by default. */
export type Transition = 'toRight' | 'toLeft' | 'fade' | 'none';

/**
 * One route of product §2 as the table spells it: its own name, its parent's and its
 * redirect's, each kept as a literal type so that ROUTES below can check them.
 */
type RouteSpec<Name extends string, Parent extends string, Redirect extends string> = {
  name: Name;
  /** Path pattern with `:params`; absent for a route that only groups tabs. */
  path?: string;
  /** Held permission needed to enter; a list passes when any is held (product §6). */
  permission?: Permission | readonly Permission[];
  /** Where entering this route leads instead (product §2: company.info → devices tab, ...). */
  redirect?: Redirect;
  /** The route whose tab strip shows this one. */
  parent?: Parent;
  /** Shown as a tab of `parent`. */
  tab?: boolean;
  /** Rendered with no chrome (product §2 Layout). */
  standalone?: boolean;
  /** Reachable without signing in. */
  public?: boolean;
  transition?: Transition;
  /** Help content: opened by itself ('panel', after 700 ms) or on demand ('link') (product §2 Layout). */
  help?: 'panel' | 'link';
};

const r = <
  const Name extends string,
  const Parent extends string = never,
  const Redirect extends string = never,
>(
  def: RouteSpec<Name, Parent, Redirect>,
) => def;

const TABLE = [
  // Management
  r({ name: 'management.devices', path: '/management/devices', permission: 'view_devices', help: 'link' }),
  r({
    name: 'hotspot.wifi',
    permission: ['view_device_hotspots', 'view_wireless_information'],
    help: 'link',
  }),
  r({
    name: 'management.hotspots',
    path: '/management/hotspots',
    permission: 'view_device_hotspots',
    parent: 'hotspot.wifi',
    tab: true,
  }),
  r({
    name: 'management.wifi',
    path: '/management/wifi',
    permission: 'view_wireless_information',
    parent: 'hotspot.wifi',
    tab: true,
  }),
  r({
    name: 'task-manager',
    path: '/management/task-manager',
    permission: 'view_device_task_groups',
    help: 'link',
  }),
  r({
    name: 'reports',
    path: '/reports',
    permission: 'view_reports',
    redirect: 'reports.single',
    help: 'link',
  }),
  r({
    name: 'reports.single',
    path: '/reports/single',
    permission: 'view_reports',
    parent: 'reports',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'reports.periodic.day',
    path: '/reports/periodic/day',
    permission: 'view_reports',
    parent: 'reports',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'reports.periodic.week',
    path: '/reports/periodic/week',
    permission: 'view_reports',
    parent: 'reports',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'reports.periodic.month',
    path: '/reports/periodic/month',
    permission: 'view_reports',
    parent: 'reports',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'report.generated',
    path: '/report/generated/:id',
    permission: 'view_reports',
    parent: 'reports',
  }),
  r({
    name: 'management.automations',
    path: '/management/automations',
    permission: 'view_device_alert_configurations',
  }),
  r({
    name: 'automations.info',
    path: '/management/automations/:id',
    permission: 'view_device_alert_configurations',
    parent: 'management.automations',
    redirect: 'automations.devices',
  }),
  r({
    name: 'automations.devices',
    path: '/management/automations/:id/devices',
    permission: 'view_device_alert_configurations',
    parent: 'automations.info',
    tab: true,
  }),
  r({
    name: 'automations.logs',
    path: '/management/automations/:id/logs',
    permission: 'view_device_alert_configurations',
    parent: 'automations.info',
    tab: true,
  }),
  r({
    name: 'dynamic.parameters',
    path: '/monitoring-templates',
    permission: 'update_monitoring',
    help: 'link',
  }),
  r({
    name: 'dynamic.parameters.create',
    path: '/monitoring-templates/create',
    permission: 'update_monitoring',
    parent: 'dynamic.parameters',
  }),
  r({
    name: 'dynamic.parameters.edit',
    path: '/monitoring-templates/edit/:id',
    permission: 'update_monitoring',
    parent: 'dynamic.parameters',
  }),
  r({ name: 'files.main', permission: ['view_files', 'view_images'] }),
  r({
    name: 'management.files',
    path: '/management/files',
    permission: 'view_files',
    parent: 'files.main',
    tab: true,
    help: 'link',
  }),
  r({
    name: 'images.table',
    path: '/management/files/images',
    permission: 'view_images',
    parent: 'files.main',
    tab: true,
  }),
  r({
    name: 'statistics.main',
    path: '/statistics',
    permission: 'view_statistics',
    redirect: 'statistics.general',
  }),
  r({
    name: 'statistics.general',
    path: '/statistics/general',
    permission: 'view_statistics',
    parent: 'statistics.main',
    tab: true,
  }),
  r({
    name: 'statistics.connection-manager',
    path: '/statistics/connection-manager',
    permission: 'view_device_logs',
    parent: 'statistics.main',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'statistics.months-stats',
    path: '/statistics/months-stats',
    permission: 'view_statistics',
    parent: 'statistics.main',
    tab: true,
  }),
  r({
    name: 'statistics.online-devices',
    path: '/statistics/online-devices',
    permission: 'view_statistics',
    parent: 'statistics.main',
    tab: true,
  }),
  r({
    name: 'statistics.action-logs',
    path: '/statistics/action-logs',
    permission: 'view_statistics',
    parent: 'statistics.main',
    tab: true,
  }),
  r({
    name: 'statistics.unique-devices',
    path: '/statistics/unique-devices',
    permission: 'view_statistics',
    parent: 'statistics.main',
    tab: true,
  }),
  r({ name: 'tags.main', path: '/tags', permission: 'view_tags', help: 'link' }),
  r({ name: 'management.tag_chart', path: '/tag/:id', permission: 'view_tags', parent: 'tags.main' }),
  r({
    name: 'multiconfig',
    path: '/device-configuration',
    permission: 'create_multi_configuration',
    help: 'link',
  }),
  r({
    name: 'update_firmware',
    path: '/management/update-firmware',
    permission: 'view_devices',
    parent: 'management.devices',
  }),
  r({
    name: 'upload_backup',
    path: '/management/upload-backup',
    permission: 'view_devices',
    parent: 'management.devices',
  }),

  // Devices
  r({
    name: 'device.info',
    path: '/devices/:id',
    permission: 'view_devices',
    parent: 'management.devices',
    redirect: 'device.activity',
  }),
  r({
    name: 'device.activity',
    path: '/devices/:id/activity',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.location',
    path: '/devices/:id/location',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.dashboards',
    path: '/devices/:id/dashboards',
    permission: 'view_device_dashboard',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.dashboard',
    path: '/devices/:id/dashboards/:dashboard_id',
    permission: 'view_device_dashboard',
    parent: 'device.dashboards',
  }),
  r({
    name: 'device.data-usage',
    path: '/devices/:id/data-usage',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.ports',
    path: '/devices/:id/ports',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.services',
    path: '/devices/:id/services',
    permission: 'update_device_credit_status',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.access',
    path: '/devices/:id/access',
    permission: 'view_device_remote_access',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.network',
    path: '/devices/:id/network',
    permission: 'create_multi_configuration',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.esim',
    path: '/devices/:id/esim',
    permission: 'create_multi_configuration',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.monitoring-parameters-history',
    path: '/devices/:id/monitoring-parameters-history',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
  }),
  r({
    name: 'device.metrics',
    path: '/devices/:id/metrics',
    permission: 'view_devices',
    parent: 'device.info',
    tab: true,
    redirect: 'device.metrics.dynamic',
  }),
  r({
    name: 'device.metrics.dynamic',
    path: '/devices/:id/metrics/dynamic',
    permission: 'view_devices',
    parent: 'device.metrics',
    tab: true,
  }),
  r({
    name: 'device.metrics.mobile-data',
    path: '/devices/:id/metrics/mobile-data',
    permission: 'view_devices',
    parent: 'device.metrics',
    tab: true,
  }),
  r({
    name: 'device.metrics.io',
    path: '/devices/:id/metrics/io',
    permission: 'view_devices',
    parent: 'device.metrics',
    tab: true,
  }),
  r({
    name: 'device.metrics.gps',
    path: '/devices/:id/metrics/gps',
    permission: 'view_devices',
    parent: 'device.metrics',
    tab: true,
  }),
  r({
    name: 'mobile.dashboard',
    path: '/device/:id/dashboard/:dashboard_id',
    permission: 'view_device_dashboard',
    standalone: true,
  }),

  // Connect
  r({ name: 'remote.access', path: '/remote/access', permission: 'view_device_remote_access', help: 'link' }),
  r({
    name: 'remote.info',
    path: '/remote/access/:id',
    permission: 'view_device_remote_access',
    parent: 'remote.access',
    help: 'link',
  }),
  r({
    name: 'service.connect-history',
    path: '/access-history',
    permission: 'view_device_remote_access',
    help: 'link',
  }),

  // VPN
  r({ name: 'vpn.hubs', path: '/vpn/hubs', permission: 'view_vpn_hubs', help: 'link' }),
  r({
    name: 'vpn-hub',
    path: '/vpn/hubs/:id',
    permission: 'view_vpn_hubs',
    parent: 'vpn.hubs',
    redirect: 'vpn-hub.general',
    help: 'link',
  }),
  ...(['general', 'clients', 'routes', 'data-usage', 'configuration'] as const).map((tab) =>
    r({
      name: `vpn-hub.${tab}`,
      path: `/vpn/hubs/:id/${tab}`,
      permission: 'view_vpn_hubs',
      parent: 'vpn-hub',
      tab: true,
    }),
  ),
  r({ name: 'vpn.quick-connect', path: '/vpn/quick-connect', permission: 'view_vpn_hubs', help: 'link' }),
  r({
    name: 'vpn-connect',
    path: '/vpn/quick-connect/:id',
    permission: 'view_vpn_hubs',
    parent: 'vpn.quick-connect',
    redirect: 'vpn-connect.general',
    help: 'link',
  }),
  ...(['general', 'clients', 'data-usage', 'connection-logs'] as const).map((tab) =>
    r({
      name: `vpn-connect.${tab}`,
      path: `/vpn/quick-connect/:id/${tab}`,
      permission: 'view_vpn_hubs',
      parent: 'vpn-connect',
      tab: true,
    }),
  ),

  // Administration
  r({ name: 'users.companies', path: '/companies', permission: 'view_companies', help: 'link' }),
  r({
    name: 'company.tree',
    path: '/companies/tree',
    permission: 'view_companies',
    parent: 'users.companies',
  }),
  r({
    name: 'company.info',
    path: '/companies/:company_id',
    permission: 'view_companies',
    parent: 'users.companies',
    redirect: 'company.devices',
    help: 'link',
  }),
  r({
    name: 'company.devices',
    path: '/companies/:company_id/devices',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
  }),
  r({
    name: 'company.data-history',
    path: '/companies/:company_id/data-history',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'company.metrics',
    path: '/companies/:company_id/metrics',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
  }),
  r({
    name: 'company.users',
    path: '/companies/:company_id/users',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
    redirect: 'company.userstable',
  }),
  r({
    name: 'company.userstable',
    path: '/companies/:company_id/users/table',
    permission: 'view_companies',
    parent: 'company.users',
    tab: true,
  }),
  r({
    name: 'company.invitations',
    path: '/companies/:company_id/users/invitations',
    permission: 'view_companies',
    parent: 'company.users',
    tab: true,
  }),
  r({
    name: 'company.tags',
    path: '/companies/:company_id/tags',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
  }),
  r({
    name: 'company.files',
    path: '/companies/:company_id/files',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
  }),
  r({
    name: 'company.reports',
    path: '/companies/:company_id/reports',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
    redirect: 'company.reports.single',
  }),
  ...(['single', 'periodic.day', 'periodic.week', 'periodic.month'] as const).map((tab) =>
    r({
      name: `company.reports.${tab}`,
      path: `/companies/:company_id/reports/${tab.replace('.', '/')}`,
      permission: 'view_companies',
      parent: 'company.reports',
      tab: true,
    }),
  ),
  r({
    name: 'company.resources',
    path: '/companies/:company_id/resources',
    permission: 'view_companies',
    parent: 'company.info',
    tab: true,
    redirect: 'company.resources.credits',
  }),
  ...(['codes', 'credits', 'data-history'] as const).map((tab) =>
    r({
      name: `company.resources.${tab}`,
      path: `/companies/:company_id/resources/${tab}`,
      permission: 'view_companies',
      parent: 'company.resources',
      tab: true,
    }),
  ),
  r({
    name: 'users',
    permission: [
      'view_users',
      'view_user_invitations',
      'view_roles',
      'view_impersonation_logs',
      'view_user_move_logs',
    ],
  }),
  r({
    name: 'users.table',
    path: '/users',
    permission: 'view_users',
    parent: 'users',
    tab: true,
    help: 'link',
  }),
  r({
    name: 'users.invitations',
    path: '/users/invitations',
    permission: 'view_user_invitations',
    parent: 'users',
    tab: true,
    help: 'link',
  }),
  r({
    name: 'users.roles',
    path: '/users/roles',
    permission: 'view_roles',
    parent: 'users',
    tab: true,
    help: 'link',
  }),
  r({
    name: 'users.impersonation-logs',
    path: '/users/impersonation-logs',
    permission: 'view_impersonation_logs',
    parent: 'users',
    tab: true,
  }),
  r({
    name: 'users.move-logs',
    path: '/users/move-logs',
    permission: 'view_user_move_logs',
    parent: 'users',
    tab: true,
  }),
  r({ name: 'impersonation.access', path: '/users/confirm-impersonation-access/:token' }),
  r({
    name: 'administration.resources',
    path: '/resources',
    permission: ['view_credits', 'view_credit_transfer_codes', 'view_company_data_history'],
    redirect: 'services.credit-history',
    help: 'link',
  }),
  r({
    name: 'services.credit-codes',
    path: '/resources/codes',
    permission: 'view_credit_transfer_codes',
    parent: 'administration.resources',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'services.credit-history',
    path: '/resources/credits',
    permission: 'view_credits',
    parent: 'administration.resources',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'services.data-history',
    path: '/resources/data-history',
    permission: 'view_company_data_history',
    parent: 'administration.resources',
    tab: true,
    help: 'panel',
  }),
  r({
    name: 'services.data-overview',
    path: '/resources/data-overview',
    permission: 'view_company_data_history',
    parent: 'administration.resources',
    help: 'panel',
  }),
  r({ name: 'service.add-credits', path: '/redeem-code', permission: 'activate_credit_transfer_codes' }),

  // System
  r({ name: 'notices.global', path: '/notices', permission: 'admin_view_notice' }),
  r({ name: 'mail.logs', path: '/system/mail-logs', permission: 'view_mail_logs' }),
  r({ name: 'auth.devices', path: '/auth-devices', permission: 'super_admin' }),
  r({ name: 'files.global', path: '/files/global/firmware', permission: 'upload_files_global_scope' }),
  r({ name: 'email-smtp', path: '/email-smtp', permission: 'super_admin' }),
  // Not in product §2: the brands of product §1, per host name, edited by the super admin.
  r({ name: 'system.brands', path: '/system/brands', permission: 'super_admin' }),
  r({ name: 'system.brand', path: '/system/brands/:id', permission: 'super_admin', parent: 'system.brands' }),

  // Everyone signed in
  r({ name: 'notifications.main', path: '/notifications' }),
  r({ name: 'changelog', path: '/changelog' }),
  r({ name: 'form', path: '/forms/:form_name/:id?', transition: 'fade' }),
  r({ name: 'logout', path: '/logout', standalone: true }),
  r({ name: 'notfound', path: '/404', standalone: true, public: true }),
];

/** The name of a route of the table: a name that is not in it does not compile. */
export type RouteName = (typeof TABLE)[number]['name'];

/**
 * One route of product §2. The table is data only: the console maps names to screens, the
 * server uses it for links (e-mails, notifications) and the guard tests walk it.
 */
export type RouteDef = RouteSpec<RouteName, RouteName, RouteName>;

/**
 * Every route of product §2, in the order the guard looks for a first permitted page. A parent
 * or redirect that names no route of the table does not compile here.
 */
export const ROUTES: readonly RouteDef[] = TABLE;

const byName = new Map<string, RouteDef>(ROUTES.map((route) => [route.name, route]));

/** True for a name of the table (a name read from the address, a tab strip, the brand's settings). */
export function isRouteName(name: string): name is RouteName {
  return byName.has(name);
}

/** The route of a name. */
export function routeByName(name: RouteName): RouteDef {
  const route = byName.get(name);
  if (!route) throw new Error(`Unknown route name: ${name}`);
  return route;
}

/** The route of a name read from outside the code (the brand's disabled routes), if there is one. */
export function findRoute(name: string): RouteDef | undefined {
  return byName.get(name);
}

/** Builds a path from a route name and its params (missing optional params dropped). */
export function pathOf(name: RouteName, params: Record<string, string | number | undefined> = {}): string {
  const route = routeByName(name);
  if (!route.path) {
    const first = ROUTES.find((child) => child.parent === name && child.path);
    if (!first) throw new Error(`Route ${name} has no path`);
    return pathOf(first.name, params);
  }
  return route.path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part;
      const optional = part.endsWith('?');
      const key = part.slice(1, optional ? -1 : undefined);
      const value = params[key];
      if (value === undefined || value === '') {
        if (optional) return null;
        throw new Error(`Route ${name} needs the parameter ${key}`);
      }
      return encodeURIComponent(String(value));
    })
    .filter((part): part is string => part !== null)
    .join('/');
}

/** The chain of routes from the top down to this one (for breadcrumbs). */
export function routeChain(name: RouteName): RouteDef[] {
  const chain: RouteDef[] = [];
  for (let route = findRoute(name); route; route = route.parent ? findRoute(route.parent) : undefined) {
    chain.unshift(route);
  }
  return chain;
}

/** Tabs shown under a route: its children marked as tabs, in table order. */
export function tabsOf(name: RouteName): RouteDef[] {
  return ROUTES.filter((route) => route.parent === name && route.tab);
}

/** The sign-in page, a document of its own (apps/web/sign-in.html). */
export const SIGN_IN_PATH = '/account/login';

/** The remote-connect launchers: these paths select the connect screens, not the main app (product §2). */
export const CONNECT_SCREENS = {
  desktop: '/rms-connect/desktop',
  ssh: '/rms-connect/ssh',
  sftp: '/rms-connect/sftp',
  telnet: '/rms-connect/telnet',
} as const;
export type ConnectScreen = keyof typeof CONNECT_SCREENS;
