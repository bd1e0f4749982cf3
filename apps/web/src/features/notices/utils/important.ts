import type { Notice } from '@fleetgate/shared/schemas/notices';

/** Per-user storage key of the last time the user looked at the notices (product §4). */
export const NOTICES_SEEN_KEY = 'notices.lastSeen';

/** Newest first by enabled_at (product §4: sorted newest first). */
export function sortNewestFirst(notices: readonly Notice[]): Notice[] {
  return [...notices].sort(
    (a, b) => Date.parse(b.enabled_at ?? '') - Date.parse(a.enabled_at ?? '') || b.id - a.id,
  );
}

/**
 * The 'Important' marker of product §4: shown when there are notices and no last-seen time
 * is stored, or the newest notice's enabled_at is later than it.
 */
export function isImportant(notices: readonly Notice[], lastSeen: string | null): boolean {
  const newest = notices.reduce((max, n) => Math.max(max, Date.parse(n.enabled_at ?? '') || 0), 0);
  if (notices.length === 0) return false;
  if (!lastSeen) return true;
  const seen = Date.parse(lastSeen);
  return Number.isNaN(seen) || newest > seen;
}
