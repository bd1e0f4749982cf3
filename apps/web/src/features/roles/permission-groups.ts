import { PERMISSIONS, type Permission } from '@fleetgate/shared/permissions';

/** Sections of the permission editor, in the order of the console's navigation. */
export const PERMISSION_GROUPS = {
  devices: [
    'view_devices',
    'manage_devices',
    'view_device_hotspots',
    'view_wireless_information',
    'view_device_task_groups',
    'view_device_alert_configurations',
    'update_monitoring',
    'view_device_logs',
    'view_device_dashboard',
    'update_device_credit_status',
    'create_multi_configuration',
  ],
  connect: ['view_device_remote_access', 'view_vpn_hubs'],
  accounts: [
    'view_companies',
    'manage_companies',
    'view_users',
    'manage_users',
    'view_user_invitations',
    'view_roles',
    'manage_roles',
    'view_permissions',
    'view_impersonation_logs',
    'impersonate_users',
    'view_user_move_logs',
  ],
  content: ['view_tags', 'manage_tags', 'view_files', 'view_images', 'view_reports', 'view_statistics'],
  resources: [
    'view_credits',
    'manage_credits',
    'view_credits_summary',
    'view_credit_transfer_codes',
    'activate_credit_transfer_codes',
    'move_devices_credits',
    'view_company_data_history',
  ],
  system: ['super_admin', 'upload_files_global_scope', 'admin_view_notice', 'view_mail_logs'],
} as const satisfies Record<string, readonly Permission[]>;

export type PermissionGroup = keyof typeof PERMISSION_GROUPS | 'other';

/**
 * The catalogue in sections; a permission added to the catalogue later and not yet
 * placed lands in 'other', so the editor always offers every permission.
 */
export function groupedPermissions(
  list: readonly string[] = PERMISSIONS,
): { group: PermissionGroup; permissions: string[] }[] {
  const placed = new Set<string>(Object.values(PERMISSION_GROUPS).flat());
  const sections = Object.entries(PERMISSION_GROUPS).map(([group, members]) => ({
    group: group as PermissionGroup,
    permissions: (members as readonly string[]).filter((p) => list.includes(p)),
  }));
  const rest = list.filter((p) => !placed.has(p));
  return [...sections, { group: 'other' as const, permissions: rest }].filter((s) => s.permissions.length);
}

/**
 * What the current user may put in a role: only what they hold, and `super_admin` only
 * when they hold it (mirrors the server's assertGrantable).
 */
export function isGrantable(held: readonly string[], permission: string): boolean {
  return held.includes(permission);
}
