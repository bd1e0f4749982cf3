import { PAGE_SIZES } from '@fleetgate/shared/constants';
import type { IdResult, Json } from '@fleetgate/shared/schemas/api';
import type {
  Company as CompanyData,
  CompanyTreeNode as TreeNodeData,
} from '@fleetgate/shared/schemas/companies';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** A company as GET /companies and /companies/{id} answer (product §3 Company plus counts and flags). */
export type Company = Json<CompanyData>;

export type CompanyTreeNode = Json<TreeNodeData>;

export type Paged<T> = { rows: T[]; total: number };

/** Query keys (CONVENTIONS example 9): any company change invalidates `companyKeys.all`. */
export const companyKeys = {
  all: ['companies'] as const,
  list: (params: Record<string, unknown>) => [...companyKeys.all, 'list', params] as const,
  one: (id: number) => [...companyKeys.all, 'one', id] as const,
  tree: () => [...companyKeys.all, 'tree'] as const,
  options: (levels: string) => [...companyKeys.all, 'options', levels] as const,
};

/** Form definitions carry company options: they are rebuilt after a company change. */
export const FORM_DEFINITIONS_KEY = ['form-definition'] as const;

export function useCompanies(params: ListParams) {
  return useQuery({
    queryKey: companyKeys.list(params),
    queryFn: async (): Promise<Paged<Company>> => {
      const response = await api.get<Company[]>('/companies', { query: params });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useCompany(id: number) {
  return useQuery({
    queryKey: companyKeys.one(id),
    queryFn: async () => (await api.get<Company>(`/companies/${id}`)).data,
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

export function useCompanyTree() {
  return useQuery({
    queryKey: companyKeys.tree(),
    queryFn: async () => {
      const response = await api.get<CompanyTreeNode[]>('/companies/tree');
      return { roots: response.data, truncated: Boolean(response.meta?.truncated) };
    },
  });
}

export type CompanyOption = { value: string; label: string };

/**
 * Companies for a selector (product §7 selector lists: limit 100 and a fields filter; the
 * company form asks for levels 1 and 2).
 */
export async function fetchCompanyOptions(levels?: readonly number[]): Promise<CompanyOption[]> {
  const response = await api.get<Pick<Company, 'id' | 'name'>[]>('/companies', {
    query: {
      limit: PAGE_SIZES.selector,
      fields: ['id', 'name'],
      sort: 'name',
      ...(levels ? { level: levels } : {}),
    },
    // Two forms may ask at once; each needs its own answer.
    dedupe: false,
  });
  return response.data.map((c) => ({ value: String(c.id), label: `${c.name} #${c.id}` }));
}

export const companyActions = {
  remove: (id: number) => api.delete<IdResult>(`/companies/${id}`),
};
