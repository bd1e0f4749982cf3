import type { Json } from '@fleetgate/shared/schemas/api';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type {
  CodeListQuery,
  CompanyBalances,
  LedgerAction,
  Movement,
  Quota,
  ResourceTypeRow,
  TransferCode,
} from '@fleetgate/shared/schemas/resources';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { accountWidgetKeys } from '#src/features/account-widget/api/account-widget-queries';
import { companyKeys } from '#src/features/companies/api/companies';
import { api } from '#src/lib/http/client';
import { downloadFile } from '#src/lib/http/download';
import { fetchPage } from '#src/lib/http/paged';

export type MovementJson = Json<Movement>;
export type TransferCodeJson = Json<TransferCode>;
export type CompanyBalancesJson = Json<CompanyBalances>;
export type ResourceTypeJson = Json<ResourceTypeRow>;
export type QuotaJson = Json<Quota>;

/** Query keys (CONVENTIONS example 9): any resource change invalidates `resourceKeys.all`. */
export const resourceKeys = {
  all: ['resources'] as const,
  types: () => [...resourceKeys.all, 'types'] as const,
  movements: (params: Record<string, unknown>) => [...resourceKeys.all, 'movements', params] as const,
  codes: (params: Record<string, unknown>) => [...resourceKeys.all, 'codes', params] as const,
  balances: (companyId: number) => [...resourceKeys.all, 'balances', companyId] as const,
  quotas: (companyId: number) => [...resourceKeys.all, 'quotas', companyId] as const,
};

/**
 * What a change of resources touches: the histories and balances here, the header's summary
 * and the company pages (GET /companies/{id} carries the balances too).
 */
export const RESOURCE_CHANGE_KEYS = [resourceKeys.all, accountWidgetKeys.all, companyKeys.all] as const;

export type { Paged } from '#src/lib/http/paged';
export const paged = fetchPage;

/** The credit history's filters (GET /credits): companies, types, actions and a period (ISO instants). */
export type MovementFilters = {
  company_id?: readonly number[];
  credit_type?: readonly number[];
  action?: readonly LedgerAction[];
  from?: string;
  to?: string;
};

export type MovementListParams = ListParams & MovementFilters;

export function useMovements(params: MovementListParams, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.movements(params),
    queryFn: () => paged<MovementJson>('/credits', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The codes table's filters (GET /credits/codes): the issuing companies, used or not. */
export type CodeListParams = ListParams & {
  company_id?: readonly number[];
  used?: CodeListQuery['used'];
};

export function useTransferCodes(params: CodeListParams, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.codes(params),
    queryFn: () => paged<TransferCodeJson>('/credits/codes', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * The resource types the caller may name (GET /credits/types): every type for the super
 * admin, the paid ones named without 'Paid' for everyone else (product §6).
 */
export async function fetchResourceTypes(): Promise<ResourceTypeJson[]> {
  // Two forms may ask at once; each needs its own answer. Selector lists are cached (product §9).
  return (await api.get<ResourceTypeJson[]>('/credits/types', { dedupe: false, cache: true })).data;
}

export function useResourceTypes(enabled = true) {
  return useQuery({
    queryKey: resourceKeys.types(),
    queryFn: fetchResourceTypes,
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** A company's balances (GET /companies/{id}/resources): credits, packs, data and each type. */
export function useCompanyBalances(companyId: number, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.balances(companyId),
    queryFn: async () => (await api.get<CompanyBalancesJson>(`/companies/${companyId}/resources`)).data,
    enabled: enabled && Number.isInteger(companyId) && companyId > 0,
    retry: false,
  });
}

/** The quotas a parent set on a company (GET /companies/{id}/quotas). */
export function useQuotas(companyId: number, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.quotas(companyId),
    queryFn: async () => (await api.get<QuotaJson[]>(`/companies/${companyId}/quotas`)).data,
    enabled,
    retry: false,
  });
}

/** The calls that change resources outside the forms, and the credit report's download. */
export const resourceActions = {
  /** PUT /companies/{id}/quotas with cap null: the company's users may pass on all it holds again. */
  removeQuota: (companyId: number, quota: QuotaJson) =>
    api.put<QuotaJson[]>(`/companies/${companyId}/quotas`, {
      credit_type_name: quota.credit_type_name,
      cap: null,
    }),
  cancelCode: (id: number) => api.delete<TransferCodeJson>(`/credits/codes/${id}`),
  /** GET /credits/report: the movements of a period as CSV, saved by the browser. */
  downloadReport: (query: { from: string; to: string; company_id?: number }) =>
    downloadFile('/credits/report', { query, fallbackName: 'credit-report.csv' }),
};
