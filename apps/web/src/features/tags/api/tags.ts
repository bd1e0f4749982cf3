import type { IdResult, Json } from '@fleetgate/shared/schemas/api';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type { TagChart, TagJson, TagListQuery } from '@fleetgate/shared/schemas/tags';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

export type TagChartJson = Json<TagChart>;

/** Query keys (CONVENTIONS example 9): any tag change invalidates `tagKeys.all`. */
export const tagKeys = {
  all: ['tags'] as const,
  list: (params: Record<string, unknown>) => [...tagKeys.all, 'list', params] as const,
  one: (id: number) => [...tagKeys.all, 'one', id] as const,
  chart: (id: number) => [...tagKeys.all, 'chart', id] as const,
};

/** The tags table: search, sort, page and the tags of these companies. */
export type TagListParams = ListParams & Pick<TagListQuery, 'company_id'>;

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
  remove: (id: number) => api.delete<IdResult>(`/tags/${id}`),
};
