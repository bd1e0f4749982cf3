import type { AccountSession } from '@fleetgate/shared/schemas/account';
import type { SessionRow } from '../auth/sessions.repository';
import { iso } from './links';

/**
 * A signed-in browser in account settings: whether it is this one, and who the support
 * person was when it is an impersonation (their address, or '' once they are gone).
 */
export function presentSession(
  row: SessionRow,
  seen: { currentSessionId: string; actorEmails: ReadonlyMap<number, string> },
): AccountSession {
  return {
    id: row.id,
    user_agent: row.userAgent,
    ip: row.ip,
    created_at: iso(row.createdAt)!,
    last_seen_at: iso(row.lastSeenAt)!,
    expires_at: iso(row.expiresAt)!,
    current: row.id === seen.currentSessionId,
    impersonated_by: row.actorUserId === null ? null : (seen.actorEmails.get(row.actorUserId) ?? ''),
  };
}
