import type { AdminNotice, Notice, NoticeStatus, NoticeType } from '@fleetgate/shared/schemas/notices';
import type { NoticeRow } from './notices.repository';

export function noticeStatus(enabledAt: Date | null, now: Date): NoticeStatus {
  if (!enabledAt) return 'disabled';
  return enabledAt.getTime() > now.getTime() ? 'scheduled' : 'enabled';
}

/** The fields every user reads (product §3 Global notice). */
export function presentNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    type: row.type as NoticeType,
    message: row.message,
    enabled_at: row.enabledAt ? row.enabledAt.toISOString() : null,
  };
}

/** The administration's view: status and bookkeeping too. */
export function presentAdminNotice(row: NoticeRow, now: Date): AdminNotice {
  return {
    ...presentNotice(row),
    status: noticeStatus(row.enabledAt, now),
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
