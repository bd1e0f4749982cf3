import type { Permission } from '@fleetgate/shared/permissions';
import type { RouteName } from '@fleetgate/shared/routes';

/** A route-map item: shown for the first permission held, which picks name and route (product §2). */
export type RouteMapItem = { permission: Permission; name: string; routeName: RouteName };

export type NavChild = {
  /** i18n key in the 'shell' namespace. */
  name: string;
  routeName: RouteName;
  params?: Record<string, string>;
  label?: string;
  /** Further route names that mark this entry active (detail pages, tabs). */
  highlighted?: readonly RouteName[];
  routeMap?: readonly RouteMapItem[];
};

export type NavGroup = { name: string; icon: string; label?: string; children: readonly NavChild[] };

/** The five groups of product §2 Navigation and their entries. */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    name: 'nav.group.management',
    icon: 'devices',
    children: [
      {
        name: 'nav.devices',
        routeName: 'management.devices',
        highlighted: ['device.info', 'update_firmware', 'upload_backup'],
      },
      {
        name: 'nav.hotspots',
        routeName: 'management.hotspots',
        routeMap: [
          { permission: 'view_device_hotspots', name: 'nav.hotspots', routeName: 'management.hotspots' },
          { permission: 'view_wireless_information', name: 'nav.wifi', routeName: 'management.wifi' },
        ],
        highlighted: ['hotspot.wifi'],
      },
      { name: 'nav.taskManager', routeName: 'task-manager' },
      { name: 'nav.reports', routeName: 'reports', highlighted: ['reports', 'report.generated'] },
      { name: 'nav.automations', routeName: 'management.automations', highlighted: ['automations.info'] },
      {
        name: 'nav.monitoringTemplates',
        routeName: 'dynamic.parameters',
        highlighted: ['dynamic.parameters'],
      },
      { name: 'nav.deviceConfiguration', routeName: 'multiconfig' },
      {
        name: 'nav.files',
        routeName: 'management.files',
        routeMap: [
          { permission: 'view_files', name: 'nav.files', routeName: 'management.files' },
          { permission: 'view_images', name: 'nav.images', routeName: 'images.table' },
        ],
        highlighted: ['files.main'],
      },
      { name: 'nav.tags', routeName: 'tags.main', highlighted: ['management.tag_chart'] },
      { name: 'nav.statistics', routeName: 'statistics.main', highlighted: ['statistics.main'] },
    ],
  },
  {
    name: 'nav.group.connect',
    icon: 'connect',
    children: [
      { name: 'nav.remoteAccess', routeName: 'remote.access', highlighted: ['remote.info'] },
      { name: 'nav.accessHistory', routeName: 'service.connect-history' },
    ],
  },
  {
    name: 'nav.group.vpn',
    icon: 'vpn',
    children: [
      { name: 'nav.vpnHubs', routeName: 'vpn.hubs', highlighted: ['vpn-hub'] },
      { name: 'nav.quickConnect', routeName: 'vpn.quick-connect', highlighted: ['vpn-connect'] },
    ],
  },
  {
    name: 'nav.group.administration',
    icon: 'administration',
    children: [
      { name: 'nav.companies', routeName: 'users.companies', highlighted: ['users.companies'] },
      {
        name: 'nav.users',
        routeName: 'users.table',
        routeMap: [
          { permission: 'view_users', name: 'nav.users', routeName: 'users.table' },
          { permission: 'view_user_invitations', name: 'nav.invitations', routeName: 'users.invitations' },
          { permission: 'view_roles', name: 'nav.roles', routeName: 'users.roles' },
        ],
        highlighted: ['users'],
      },
      {
        name: 'nav.resources',
        routeName: 'administration.resources',
        routeMap: [
          { permission: 'view_credits', name: 'nav.resources', routeName: 'administration.resources' },
          {
            permission: 'view_credit_transfer_codes',
            name: 'nav.transferCodes',
            routeName: 'services.credit-codes',
          },
          {
            permission: 'view_company_data_history',
            name: 'nav.dataHistory',
            routeName: 'services.data-history',
          },
        ],
        highlighted: ['administration.resources'],
      },
      { name: 'nav.redeemCode', routeName: 'service.add-credits' },
    ],
  },
  {
    name: 'nav.group.system',
    icon: 'system',
    children: [
      { name: 'nav.notices', routeName: 'notices.global' },
      { name: 'nav.mailLogs', routeName: 'mail.logs' },
      { name: 'nav.approvedDevices', routeName: 'auth.devices' },
      { name: 'nav.globalFirmware', routeName: 'files.global' },
      { name: 'nav.emailSmtp', routeName: 'email-smtp' },
      { name: 'nav.brands', routeName: 'system.brands', highlighted: ['system.brand'] },
    ],
  },
];
