import type { Json } from '@fleetgate/shared/schemas/api';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type { DataOverview, DataUsage } from '@fleetgate/shared/schemas/resources';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paged, resourceKeys } from './resources';

export type DataUsageJson = Json<DataUsage>;
export type DataOverviewJson = Json<DataOverview>;

/**
 * Query keys of company data (CONVENTIONS example 9), under `resourceKeys.all`: buying data or
 * any other resource change refreshes the overview's remaining data too.
 */
export const dataUsageKeys = {
  all: [...resourceKeys.all, 'data'] as const,
  history: (params: Record<string, unknown>) => [...dataUsageKeys.all, 'history', params] as const,
  overview: (params: Record<string, unknown>) => [...dataUsageKeys.all, 'overview', params] as const,
};

/** The page the data endpoints take: they answer newest day first or in tree order, with no search. */
export type DataPage = Pick<ListParams, 'limit' | 'offset'>;

/** The data history's filters (GET /credits/data-history): companies and a period of days (YYYY-MM-DD). */
export type DataHistoryFilters = {
  company_id?: readonly number[];
  from?: string;
  to?: string;
};

export type DataHistoryParams = DataPage & DataHistoryFilters;

/** Company data spent per day, device and purpose (product §2 services.data-history, company.data-history). */
export function useDataHistory(params: DataHistoryParams, enabled = true) {
  return useQuery({
    queryKey: dataUsageKeys.history(params),
    queryFn: () => paged<DataUsageJson>('/credits/data-history', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Each company's data left, its pace and the day it runs out (product §2 services.data-overview). */
export function useDataOverview(params: DataPage) {
  return useQuery({
    queryKey: dataUsageKeys.overview(params),
    queryFn: () => paged<DataOverviewJson>('/credits/data-overview', params),
    placeholderData: keepPreviousData,
  });
}
