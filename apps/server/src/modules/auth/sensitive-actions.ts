import type { AuthContext } from '#src/plugins/auth';

/**
 * When a sensitive action asks for a password typed within the last ten minutes (the 423
 * step-up of product §4, answered by POST /password-confirmation):
 * - 'impersonating': only while impersonating, and then the real actor's password. The
 *   user acting as themself is not asked: they are who they say.
 * - 'always': whoever acts (the account's own secrets, such as access tokens).
 */
export type StepUp = 'always' | 'impersonating';

export type SensitiveAction = {
  method: 'POST' | 'PUT' | 'DELETE';
  /** The route's path as registered (`/api/roles/:id`). */
  url: string;
  stepUp: StepUp;
  /** Narrows the rule to some requests (a bulk device action names its action in the body). */
  when?: (body: unknown, auth: AuthContext) => boolean;
  /** What it is, in the words of docs/security.md. */
  what: string;
};

const bulkActionIs =
  (...actions: string[]) =>
  (body: unknown) =>
    actions.includes(String((body as { action?: unknown } | undefined)?.action));

const changesEmail = (body: unknown, auth: AuthContext) =>
  (body as { email?: unknown } | undefined)?.email !== auth.principal.email;

/**
 * Every sensitive action, in one place (docs/security.md lists them). The access plugin
 * attaches the step-up to each route named here, and a test fails on an entry that names
 * no route, so a renamed route cannot silently lose it. A new feature adds its rows.
 */
export const SENSITIVE_ACTIONS: readonly SensitiveAction[] = [
  // Who may do what.
  { method: 'POST', url: '/api/users/invite', stepUp: 'impersonating', what: 'Invite a user' },
  {
    method: 'POST',
    url: '/api/distributors/invitations',
    stepUp: 'impersonating',
    what: 'Invite a new company',
  },
  {
    method: 'POST',
    url: '/api/invitations/:id/resend',
    stepUp: 'impersonating',
    what: 'Resend an invitation',
  },
  { method: 'PUT', url: '/api/users/:id/role', stepUp: 'impersonating', what: "Change a user's role" },
  { method: 'POST', url: '/api/users/move', stepUp: 'impersonating', what: 'Move users to another company' },
  { method: 'DELETE', url: '/api/admin/users', stepUp: 'impersonating', what: 'Delete a user' },
  {
    method: 'DELETE',
    url: '/api/admin/users/mfa',
    stepUp: 'impersonating',
    what: "Remove a user's two-step verification",
  },
  {
    method: 'POST',
    url: '/api/admin/users/sso',
    stepUp: 'impersonating',
    what: 'Make a user SSO administrator',
  },
  { method: 'POST', url: '/api/roles', stepUp: 'impersonating', what: 'Create a role' },
  { method: 'PUT', url: '/api/roles/:id', stepUp: 'impersonating', what: 'Change a role' },
  { method: 'DELETE', url: '/api/roles/:id', stepUp: 'impersonating', what: 'Delete a role' },
  // Companies.
  { method: 'DELETE', url: '/api/companies/:id', stepUp: 'impersonating', what: 'Delete a company' },
  { method: 'POST', url: '/api/companies/move', stepUp: 'impersonating', what: 'Move a company' },
  {
    method: 'PUT',
    url: '/api/companies/:id/flags',
    stepUp: 'impersonating',
    what: "Change a company's flags (two-step duty, payments)",
  },
  // Devices: their access and their identity.
  {
    method: 'POST',
    url: '/api/devices/actions',
    stepUp: 'impersonating',
    when: bulkActionIs('set_password', 'reset_identity', 'cli', 'unregister'),
    what: "Set a device's password, reset its identity, run CLI on it, or unregister it",
  },
  {
    method: 'POST',
    url: '/api/devices/passwords/set',
    stepUp: 'impersonating',
    what: "Set a device's password",
  },
  { method: 'DELETE', url: '/api/devices/:id', stepUp: 'impersonating', what: 'Unregister a device' },
  {
    method: 'POST',
    url: '/api/remote/share-links',
    stepUp: 'impersonating',
    what: "Share remote access to a device's entry with whoever holds a link",
  },
  { method: 'POST', url: '/api/devices/authorized', stepUp: 'impersonating', what: 'Approve a device' },
  {
    method: 'DELETE',
    url: '/api/devices/authorized/:id',
    stepUp: 'impersonating',
    what: 'Remove an approval',
  },
  // The system.
  { method: 'PUT', url: '/api/brand', stepUp: 'impersonating', what: 'Change the brand' },
  { method: 'POST', url: '/api/brands', stepUp: 'impersonating', what: 'Create a brand' },
  { method: 'PUT', url: '/api/brands/:id', stepUp: 'impersonating', what: 'Change a brand' },
  { method: 'DELETE', url: '/api/brands/:id', stepUp: 'impersonating', what: 'Delete a brand' },
  {
    method: 'POST',
    url: '/api/brands/:id/images/:kind',
    stepUp: 'impersonating',
    what: "Upload a brand's favicon or logo",
  },
  { method: 'PUT', url: '/api/email-smtp', stepUp: 'impersonating', what: 'Change the SMTP configuration' },
  {
    method: 'DELETE',
    url: '/api/email-smtp',
    stepUp: 'impersonating',
    what: 'Remove the SMTP configuration',
  },
  // The account's own sign-in.
  { method: 'PUT', url: '/api/user/password', stepUp: 'impersonating', what: 'Change the password' },
  {
    method: 'PUT',
    url: '/api/user/contact',
    stepUp: 'always',
    when: changesEmail,
    what: 'Change the sign-in e-mail address',
  },
  { method: 'DELETE', url: '/api/user/sessions/:id', stepUp: 'impersonating', what: 'End a session' },
  {
    method: 'POST',
    url: '/api/user/sessions/revoke-others',
    stepUp: 'impersonating',
    what: 'End every other session',
  },
  { method: 'POST', url: '/api/user/mfa/totp', stepUp: 'impersonating', what: 'Set up an authenticator app' },
  {
    method: 'POST',
    url: '/api/user/mfa/totp/confirm',
    stepUp: 'impersonating',
    what: 'Confirm an authenticator app',
  },
  { method: 'POST', url: '/api/user/mfa/email', stepUp: 'impersonating', what: 'Set up codes by e-mail' },
  {
    method: 'POST',
    url: '/api/user/mfa/email/confirm',
    stepUp: 'impersonating',
    what: 'Confirm codes by e-mail',
  },
  { method: 'POST', url: '/api/user/mfa/vendor', stepUp: 'impersonating', what: 'Set up vendor ID' },
  { method: 'POST', url: '/api/user/mfa/recovery-codes', stepUp: 'always', what: 'Make new recovery codes' },
  { method: 'DELETE', url: '/api/user/mfa', stepUp: 'always', what: 'Turn two-step verification off' },
  { method: 'POST', url: '/api/user/tokens', stepUp: 'always', what: 'Create an API token' },
];

/** The sensitive action a route is, if any. */
export function sensitiveActionOf(method: string, url: string): SensitiveAction | undefined {
  return SENSITIVE_ACTIONS.find((a) => a.method === method && a.url === url);
}
