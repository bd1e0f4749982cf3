import type { TagJson, TagStatusBucket } from '@fleetgate/shared/schemas/tags';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/client';

export type TagChartJson = {
  tag: TagJson;
  total: number;
  by_status: { status: TagStatusBucket; count: number }[];
  by_model: { model: string | null; count: number }[];
};

/** Query keys (CONVENTIONS example 9): any tag change invalidates `tagKeys.all`. */
export const tagKeys = {
  all: ['tags'] as const,
  list: (params: Record<string, unknown>) => [...tagKeys.all, 'list', params] as const,
  one: (id: number) => [...tagKeys.all, 'one', id] as const,
  chart: (id: number) => [...tagKeys.all, 'chart', id] as const,
};

export type TagListParams = { q: string; sort: string; limit: number; offset: number; company_id?: number };

export function useTags(params: TagListParams) {
  return useQuery({
    queryKey: tagKeys.list(params),
    queryFn: async () => {
      const response = await api.get<TagJson[]>('/tags', { query: params });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useTagChart(id: number) {
  return useQuery({
    queryKey: tagKeys.chart(id),
    queryFn: async () => (await api.get<TagChartJson>(`/tags/${id}/chart`)).data,
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

export const tagActions = {
  remove: (id: number) => api.delete<{ id: number }>(`/tags/${id}`),
};
