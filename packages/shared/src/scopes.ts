import type { Permission } from './permissions';

/**
 * Scopes of personal access tokens (`Authorization: Bearer`). A token acts with
 * the permissions its user holds AND its scopes allow: the intersection, never more.
 * Impersonation, the system-only rights and the account's own settings are in no scope,
 * so no token can reach them.
 */
export const TOKEN_SCOPES = {
  'devices:read': {
    description: 'Read devices, their status, telemetry, logs and dashboards',
    permissions: [
      'view_devices',
      'view_device_hotspots',
      'view_wireless_information',
      'view_device_logs',
      'view_device_dashboard',
      'view_device_task_groups',
      'view_statistics',
    ],
  },
  'devices:write': {
    description: 'Change devices: names, monitoring, credit status, configuration',
    permissions: [
      'view_devices',
      'manage_devices',
      'update_monitoring',
      'update_device_credit_status',
      'create_multi_configuration',
    ],
  },
  'companies:read': {
    description: 'Read the companies you reach and their data history',
    permissions: ['view_companies', 'view_company_data_history'],
  },
  'companies:write': {
    description: 'Create, change, move and delete companies',
    permissions: ['view_companies', 'manage_companies'],
  },
  'users:read': {
    description: 'Read users, invitations and roles',
    permissions: ['view_users', 'view_user_invitations', 'view_roles', 'view_user_move_logs'],
  },
  'tags:read': { description: 'Read tags', permissions: ['view_tags'] },
  'tags:write': { description: 'Create, change and delete tags', permissions: ['view_tags', 'manage_tags'] },
  'credits:read': {
    description: 'Read resources (credits), transfer codes, company data and their summary',
    permissions: [
      'view_credits',
      'view_credits_summary',
      'view_credit_transfer_codes',
      'view_company_data_history',
    ],
  },
  'credits:write': {
    description: 'Move resources, create and activate transfer codes',
    permissions: [
      'view_credits',
      'view_credits_summary',
      'manage_credits',
      'move_devices_credits',
      'activate_credit_transfer_codes',
    ],
  },
} as const satisfies Record<string, { description: string; permissions: readonly Permission[] }>;

export type TokenScope = keyof typeof TOKEN_SCOPES;

export const TOKEN_SCOPE_NAMES = Object.keys(TOKEN_SCOPES) as [TokenScope, ...TokenScope[]];

/** The permissions a set of scopes may use (before intersecting with the user's own). */
export function scopePermissions(scopes: readonly string[]): Set<Permission> {
  const allowed = new Set<Permission>();
  for (const scope of scopes) {
    const entry = (TOKEN_SCOPES as Record<string, { permissions: readonly Permission[] }>)[scope];
    for (const permission of entry?.permissions ?? []) allowed.add(permission);
  }
  return allowed;
}

/** What a token may do: the user's permissions ∩ the scopes' permissions. */
export function tokenPermissions(userPermissions: readonly string[], scopes: readonly string[]): string[] {
  const allowed = scopePermissions(scopes);
  return userPermissions.filter((p) => allowed.has(p as Permission));
}

/** The scopes that grant one of `permissions`: what a token needs to reach a route asking for them. */
export function scopesReaching(permissions: readonly Permission[]): TokenScope[] {
  return TOKEN_SCOPE_NAMES.filter((name) =>
    permissions.some((p) => (TOKEN_SCOPES[name].permissions as readonly Permission[]).includes(p)),
  );
}
