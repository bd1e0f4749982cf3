import type { Permission } from '@fleetgate/shared/permissions';
import { pathOf, type RouteName } from '@fleetgate/shared/routes';
import type { Icon } from '@tabler/icons-react';
import { IconBuilding, IconPlugConnected, IconRouter, IconTag, IconUsers } from '@tabler/icons-react';
import i18next from 'i18next';
import { statusLook } from '../devices/utils/status';

/** One hit of the global search (product §3 Search result). */
export type SearchResult = {
  id: number | string;
  name?: string;
  status?: number | string;
  email?: string;
  protocol?: string;
  enabled?: boolean;
  color?: string;
};

/**
 * One searchable endpoint of product §2 Global search and §7 Search. Features add their own
 * entry here when their list endpoint exists; the search shows an entry only to users
 * holding its permission.
 */
export type SearchEndpoint = {
  /** Stable id, kept in the saved choice of endpoints. */
  id: string;
  /** i18n key in the 'search' namespace. */
  labelKey: string;
  /** API path of the list read, without `/api`. */
  path: string;
  permission: Permission;
  /** Route name of the full table; 'View in table' opens it with `?q=`. */
  tableRoute: RouteName;
  icon: Icon;
  /** The main line of a result. */
  title(result: SearchResult): string;
  /** A second, dimmed line. */
  subtitle?(result: SearchResult): string | undefined;
  /** Where a click on the result leads (a console path). */
  href(result: SearchResult, query: string): string;
};

/** Every endpoint that exists now, in the spec's order (devices, companies, ..., users, files). */
export const SEARCH_ENDPOINTS: readonly SearchEndpoint[] = [
  {
    id: 'devices',
    labelKey: 'endpoint.devices',
    path: '/devices',
    permission: 'view_devices',
    tableRoute: 'management.devices',
    icon: IconRouter,
    title: (r) => r.name ?? `#${r.id}`,
    // product §3 Search result: status shown with the texts of product §4.
    subtitle: (r) =>
      typeof r.status === 'number' ? i18next.t(`devices:status.${statusLook(r.status).key}`) : undefined,
    href: (r) => pathOf('device.info', { id: r.id }),
  },
  {
    id: 'companies',
    labelKey: 'endpoint.companies',
    path: '/companies',
    permission: 'view_companies',
    tableRoute: 'users.companies',
    icon: IconBuilding,
    title: (r) => r.name ?? `#${r.id}`,
    subtitle: (r) => `#${r.id}`,
    href: (r) => pathOf('company.info', { company_id: r.id }),
  },
  {
    id: 'remoteAccess',
    labelKey: 'endpoint.remoteAccess',
    path: '/devices/remote-access',
    permission: 'view_device_remote_access',
    tableRoute: 'remote.access',
    icon: IconPlugConnected,
    title: (r) => r.name ?? `#${r.id}`,
    // product §7 Search asks for protocol and enabled: the protocol, and whether it is off.
    subtitle: (r) =>
      [r.protocol?.toUpperCase(), r.enabled === false ? i18next.t('search:disabled') : undefined]
        .filter(Boolean)
        .join(' · ') || undefined,
    href: (r) => pathOf('remote.info', { id: r.id }),
  },
  {
    id: 'tags',
    labelKey: 'endpoint.tags',
    path: '/tags',
    permission: 'view_tags',
    tableRoute: 'tags.main',
    icon: IconTag,
    title: (r) => r.name ?? `#${r.id}`,
    subtitle: (r) => r.color,
    href: (r) => pathOf('management.tag_chart', { id: r.id }),
  },
  {
    id: 'users',
    labelKey: 'endpoint.users',
    path: '/users',
    permission: 'view_users',
    tableRoute: 'users.table',
    icon: IconUsers,
    title: (r) => r.email ?? r.name ?? `#${r.id}`,
    subtitle: (r) => (r.name && r.name !== r.email ? r.name : undefined),
    href: (r) => `${pathOf('users.table')}?q=${encodeURIComponent(r.email ?? r.name ?? '')}`,
  },
];

/** The endpoints a user may search (product §6: each entry's permission). */
export function availableEndpoints(
  can: (permission: Permission) => boolean,
  registry: readonly SearchEndpoint[] = SEARCH_ENDPOINTS,
): SearchEndpoint[] {
  return registry.filter((endpoint) => can(endpoint.permission));
}
