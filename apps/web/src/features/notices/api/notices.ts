import type { IdResult } from '@fleetgate/shared/schemas/api';
import type { AdminNotice, Notice } from '@fleetgate/shared/schemas/notices';
import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** Query keys of notices (CONVENTIONS example 9): a change invalidates `noticeKeys.all`. */
export const noticeKeys = {
  all: ['notices'] as const,
  active: () => [...noticeKeys.all, 'active'] as const,
  admin: (page: number, pageSize: number) => [...noticeKeys.all, 'admin', page, pageSize] as const,
};

/** Enabled notices for the header (product §7 GET /notices); kept across route changes. */
export function useActiveNotices() {
  return useQuery({
    queryKey: noticeKeys.active(),
    queryFn: async () => (await api.get<Notice[]>('/notices', { keepOnRouteChange: true })).data,
    staleTime: 0,
  });
}

/** One page of every notice, newest first, for the administration. */
export function useAdminNotices(page: number, pageSize: number) {
  return useQuery({
    queryKey: noticeKeys.admin(page, pageSize),
    queryFn: async () => {
      const response = await api.get<AdminNotice[]>('/admin/notices', {
        query: { limit: pageSize, offset: (page - 1) * pageSize, sort: '-created_at' },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: (previous) => previous,
  });
}

export const noticeActions = {
  enable: (id: number, at?: string) =>
    api.post<AdminNotice>(`/admin/notices/${id}/enable`, at ? { enabled_at: at } : {}),
  disable: (id: number) => api.post<AdminNotice>(`/admin/notices/${id}/disable`, {}),
  remove: (id: number) => api.delete<IdResult>(`/admin/notices/${id}`),
};
