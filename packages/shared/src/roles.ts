import { PERMISSIONS, type Permission } from './permissions';

/** Default role names of product §6. */
export const ROLE_NAMES = ['super_admin', 'admin', 'end_user', 'readonly_admin', 'read_only'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export type DefaultRole = {
  id: number;
  name: RoleName;
  title: string;
  description: string;
  /** Role names this role may invite, as product §6 lists them ('support' is listed but not a default role). */
  canInviteRoles: readonly string[];
  permissions: readonly Permission[];
};

const ALL_VIEWS_OF_A_COMPANY: readonly Permission[] = [
  'view_devices',
  'view_device_hotspots',
  'view_wireless_information',
  'view_device_task_groups',
  'view_reports',
  'view_device_alert_configurations',
  'view_device_remote_access',
  'view_vpn_hubs',
  'view_users',
  'view_user_invitations',
  'view_roles',
  'view_tags',
  'view_files',
  'view_images',
  'view_credits',
  'view_statistics',
  'view_device_logs',
  'view_device_dashboard',
  'view_credits_summary',
  'view_permissions',
];

/** What only the operator of the whole system may do. */
const SYSTEM_ONLY: readonly Permission[] = [
  'super_admin',
  'upload_files_global_scope',
  'admin_view_notice',
  'view_mail_logs',
];

const ADMIN = PERMISSIONS.filter((p) => !SYSTEM_ONLY.includes(p));

const END_USER: readonly Permission[] = [
  ...ALL_VIEWS_OF_A_COMPANY,
  'update_monitoring',
  'update_device_credit_status',
  'create_multi_configuration',
  'activate_credit_transfer_codes',
  'manage_devices',
  'manage_tags',
];

const READONLY_ADMIN: readonly Permission[] = [
  ...ALL_VIEWS_OF_A_COMPANY,
  'view_companies',
  'view_impersonation_logs',
  'view_user_move_logs',
  'view_credit_transfer_codes',
  'view_company_data_history',
];

const READ_ONLY: readonly Permission[] = [
  'view_devices',
  'view_device_hotspots',
  'view_wireless_information',
  'view_reports',
  'view_device_alert_configurations',
  'view_device_remote_access',
  'view_vpn_hubs',
  'view_users',
  'view_tags',
  'view_files',
  'view_images',
  'view_statistics',
  'view_device_dashboard',
  'view_credits_summary',
  'view_permissions',
];

/** The five default roles of product §6, with their fixed ids. */
export const DEFAULT_ROLES: readonly DefaultRole[] = [
  {
    id: 1,
    name: 'super_admin',
    title: 'System Administrator',
    description: 'Runs the whole system: every company, every device, the system settings.',
    canInviteRoles: ['admin', 'end_user', 'readonly_admin', 'read_only', 'support'],
    permissions: PERMISSIONS,
  },
  {
    id: 2,
    name: 'admin',
    title: 'Administrator',
    description:
      'Full control of its own company devices and users and of its subsidiaries; creates users and subsidiary companies; moves credits.',
    canInviteRoles: ['admin', 'end_user', 'readonly_admin', 'read_only'],
    permissions: ADMIN,
  },
  {
    id: 3,
    name: 'end_user',
    title: 'End Client',
    description: 'Sees only its own company devices and users; no subsidiaries, no credit moves.',
    canInviteRoles: [],
    permissions: END_USER,
  },
  {
    id: 6,
    name: 'readonly_admin',
    title: 'Advanced Guest',
    description: 'Demo access without actions; sees its own and subsidiary company information.',
    canInviteRoles: [],
    permissions: READONLY_ADMIN,
  },
  {
    id: 4,
    name: 'read_only',
    title: 'Guest',
    description: 'Demo access without actions; sees only its own company.',
    canInviteRoles: [],
    permissions: READ_ONLY,
  },
];

/**
 * Roles a role may invite. A role unknown to the list is treated as admin (product §6).
 */
export function invitableRoles(roleName: string): readonly string[] {
  const role =
    DEFAULT_ROLES.find((r) => r.name === roleName) ?? DEFAULT_ROLES.find((r) => r.name === 'admin');
  return role?.canInviteRoles ?? [];
}
