/**
 * The one catalogue of permissions and default roles (product §6).
 *
 * The first block is every permission string the spec names; a super admin holds all
 * of them. The second block is Fleetgate's own action permissions: the spec's strings
 * are nearly all "view" rights, and an RMS needs to say who may change things. Their
 * sets per role are explained in docs/permissions.md.
 */

/** Permission strings of product §6, in the spec's order. */
export const SPEC_PERMISSIONS = [
  'view_devices',
  'view_device_hotspots',
  'view_wireless_information',
  'view_device_task_groups',
  'view_reports',
  'view_device_alert_configurations',
  'update_monitoring',
  'view_device_remote_access',
  'view_vpn_hubs',
  'view_companies',
  'view_users',
  'view_user_invitations',
  'view_roles',
  'view_impersonation_logs',
  'view_user_move_logs',
  'view_tags',
  'view_files',
  'view_images',
  'view_credits',
  'view_credit_transfer_codes',
  'view_company_data_history',
  'upload_files_global_scope',
  'admin_view_notice',
  'super_admin',
  'view_mail_logs',
  'move_devices_credits',
  'view_statistics',
  'view_device_logs',
  'view_device_dashboard',
  'update_device_credit_status',
  'create_multi_configuration',
  'activate_credit_transfer_codes',
  'view_credits_summary',
  'view_permissions',
] as const;

/** Fleetgate's action permissions (see docs/permissions.md). */
export const ACTION_PERMISSIONS = [
  'manage_devices',
  'manage_companies',
  'manage_users',
  'manage_roles',
  'manage_tags',
  'impersonate_users',
  'manage_credits',
] as const;

export const PERMISSIONS = [...SPEC_PERMISSIONS, ...ACTION_PERMISSIONS] as const;

export type Permission = (typeof PERMISSIONS)[number];

const permissionSet: ReadonlySet<string> = new Set(PERMISSIONS);

/** Narrows an arbitrary string to a known permission. */
export function isPermission(value: string): value is Permission {
  return permissionSet.has(value);
}

/**
 * A check on a list passes if any (or all, if requested) match (product §6).
 */
export function hasPermission(
  held: readonly string[],
  required: Permission | readonly Permission[],
  mode: 'any' | 'all' = 'any',
): boolean {
  const list: readonly Permission[] = typeof required === 'string' ? [required] : required;
  if (list.length === 0) return true;
  return mode === 'all' ? list.every((p) => held.includes(p)) : list.some((p) => held.includes(p));
}
