import type { IdResult } from '@fleetgate/shared/schemas/api';
import type {
  Role,
  RoleBody,
  RoleListQuery,
  RoleUpdateBody,
  RoleWithPermissions,
} from '@fleetgate/shared/schemas/roles';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

export type { RoleWithPermissions };

/** Query keys (CONVENTIONS example 9): any role change invalidates `roleKeys.all`. */
export const roleKeys = {
  all: ['roles'] as const,
  list: (params: Record<string, unknown>) => [...roleKeys.all, 'list', params] as const,
  one: (id: number) => [...roleKeys.all, 'one', id] as const,
};

/** The roles page asks for default or custom roles, one page, optionally one company's. */
export type RoleListParams = Required<Pick<RoleListQuery, 'type'>> &
  Pick<RoleListQuery, 'limit' | 'offset' | 'company_id'>;

/** GET /roles (product §7: limit 100, optional company_id, type custom or default). */
export function useRoles(params: RoleListParams) {
  return useQuery({
    queryKey: roleKeys.list(params),
    queryFn: async () => {
      const response = await api.get<Role[]>('/roles', { query: params });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useRole(id: number | undefined) {
  return useQuery({
    queryKey: roleKeys.one(id ?? 0),
    queryFn: async () => (await api.get<RoleWithPermissions>(`/roles/${id}`)).data,
    enabled: id !== undefined,
    retry: false,
  });
}

export const roleActions = {
  create: (body: RoleBody) => api.post<RoleWithPermissions>('/roles', body, { keepOnRouteChange: true }),
  update: (id: number, body: RoleUpdateBody) =>
    api.put<RoleWithPermissions>(`/roles/${id}`, body, { keepOnRouteChange: true }),
  remove: (id: number) => api.delete<IdResult>(`/roles/${id}`),
};
