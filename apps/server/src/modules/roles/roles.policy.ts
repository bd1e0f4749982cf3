import { forbidden } from '#src/http/errors';
import type { AuthContext } from '#src/plugins/auth';

/**
 * A role may grant only what its author holds: nobody builds a role above their own (nor
 * invites or assigns one), and `super_admin` stays with the super admins.
 */
export function assertGrantable(caller: AuthContext, permissions: readonly string[]): void {
  const held = new Set(caller.principal.permissions);
  const beyond = permissions.filter((p) => !held.has(p) || (p === 'super_admin' && !held.has('super_admin')));
  if (beyond.length) throw forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
}
