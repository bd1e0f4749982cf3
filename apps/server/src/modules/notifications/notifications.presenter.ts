import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import type { NotificationRow } from './notifications.repository';

/** A stored notification as the API and the socket send it (product §3 Notification). */
export function presentNotification(row: NotificationRow): WebNotification {
  return {
    id: row.id,
    type: row.type,
    summary: row.summary,
    data: row.data ?? null,
    created_at: row.createdAt.toISOString(),
    seen_at: row.seenAt ? row.seenAt.toISOString() : null,
  };
}
