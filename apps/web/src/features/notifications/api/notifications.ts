import type {
  MarkSeenResult,
  NotificationsMeta,
  WebNotification,
} from '@fleetgate/shared/schemas/notifications';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** How many of the newest notifications the bell lists. */
export const BELL_LIMIT = 10;

/** One page of the caller's notifications with the counts of its meta. */
export type NotificationsPage = { rows: WebNotification[] } & NotificationsMeta;

/** Query keys of notifications (CONVENTIONS example 9): a change invalidates `notificationKeys.all`. */
export const notificationKeys = {
  all: ['notifications'] as const,
  bell: () => [...notificationKeys.all, 'bell'] as const,
  pages: () => [...notificationKeys.all, 'page'] as const,
  page: (page: number, pageSize: number) => [...notificationKeys.pages(), page, pageSize] as const,
};

/**
 * GET /notifications (product §7): a forced refresh, never from the response cache. The
 * header's requests survive route changes.
 */
export async function fetchNotifications(
  limit: number,
  offset: number,
  keepOnRouteChange = false,
): Promise<NotificationsPage> {
  const response = await api.get<WebNotification[]>('/notifications', {
    query: { limit, offset },
    keepOnRouteChange,
  });
  return {
    rows: response.data,
    total: Number(response.meta?.total ?? response.data.length),
    unseen: Number(response.meta?.unseen ?? 0),
  };
}

/** PUT /notifications with the unseen ids (product §7). */
export function markSeen(ids: readonly number[], keepOnRouteChange = false) {
  return api.put<MarkSeenResult>('/notifications', { id: ids }, { keepOnRouteChange });
}

/** The newest notifications and the unseen count, for the bell. */
export function useBellNotifications() {
  return useQuery({
    queryKey: notificationKeys.bell(),
    queryFn: () => fetchNotifications(BELL_LIMIT, 0, true),
    staleTime: 0,
  });
}

/** One page of the caller's notifications for the notifications page. */
export function useNotificationsPage(page: number, pageSize: number) {
  return useQuery({
    queryKey: notificationKeys.page(page, pageSize),
    queryFn: () => fetchNotifications(pageSize, (page - 1) * pageSize),
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
}

/**
 * A notification pushed over the socket (product §4): prepended to the bell's list, counted
 * unseen, and the pages reloaded so that the first one shows it too.
 */
export function prependPushed(queryClient: QueryClient, notification: WebNotification): void {
  queryClient.setQueryData<NotificationsPage>(notificationKeys.bell(), (current) => {
    if (!current) return current;
    if (current.rows.some((n) => n.id === notification.id)) return current;
    return {
      // Not trimmed to BELL_LIMIT: what the user saw is what closing the list marks seen.
      rows: [notification, ...current.rows],
      total: current.total + 1,
      unseen: current.unseen + (notification.seen_at ? 0 : 1),
    };
  });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.pages() });
}
