import { PAGE_SIZES } from '@fleetgate/shared/constants';
import type { IdResult, Json } from '@fleetgate/shared/schemas/api';
import type { Company } from '@fleetgate/shared/schemas/companies';
import type { Invitation, InvitationListQuery, InvitationSent } from '@fleetgate/shared/schemas/invitations';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type { Role } from '@fleetgate/shared/schemas/roles';
import type { UserListQuery, UserMoveLog, UserRow, UsersMoved } from '@fleetgate/shared/schemas/users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

export type Paged<T> = { rows: T[]; total: number };
export type CompanyOption = Pick<Json<Company>, 'id' | 'name'>;
/** The users and move-logs tables: search, sort, page and one company's. */
type UserListParams = ListParams & Pick<UserListQuery, 'company_id'>;
/** The invitations table: search, sort, page, one company's and one status. */
type InvitationListParams = ListParams & Pick<InvitationListQuery, 'company_id' | 'status'>;

/**
 * Query keys (CONVENTIONS example 9). A change to users invalidates `userKeys.all`, to
 * invitations `invitationKeys.all`; moving users also changes the move logs.
 */
export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => [...userKeys.all, 'list', params] as const,
  moveLogs: (params: UserListParams) => [...userKeys.all, 'move-logs', params] as const,
};
export const invitationKeys = {
  all: ['invitations'] as const,
  list: (params: InvitationListParams) => [...invitationKeys.all, 'list', params] as const,
};
export const optionKeys = {
  companies: (q: string) => ['users', 'options', 'companies', q] as const,
  roles: (companyId: number | null) => ['users', 'options', 'roles', companyId] as const,
};

async function paged<T>(path: string, query: Record<string, string | number | undefined>): Promise<Paged<T>> {
  const response = await api.get<T[]>(path, { query });
  return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
}

/** users.table (product §2): one server page. */
export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => paged<UserRow>('/users', params),
    placeholderData: keepPreviousData,
  });
}

/** users.invitations (product §2): one server page. */
export function useInvitations(params: InvitationListParams) {
  return useQuery({
    queryKey: invitationKeys.list(params),
    queryFn: () => paged<Invitation>('/invitations', params),
    placeholderData: keepPreviousData,
  });
}

/** users.move-logs (product §2): one server page. */
export function useMoveLogs(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.moveLogs(params),
    queryFn: () => paged<UserMoveLog>('/users/move-logs', params),
    placeholderData: keepPreviousData,
  });
}

/** The company selector (product §7 selector lists: limit 100 and a fields filter), searched on the server. */
export function useCompanyOptions(q: string, enabled = true) {
  return useQuery({
    queryKey: optionKeys.companies(q),
    queryFn: async () =>
      (
        await api.get<CompanyOption[]>('/companies', {
          query: { limit: PAGE_SIZES.selector, fields: ['id', 'name'], sort: 'name', q },
        })
      ).data,
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** The role options of one company: default roles plus its custom roles (product §3 newUser, §7 GET /roles). */
export function useRoleOptions(companyId: number | null) {
  return useQuery({
    queryKey: optionKeys.roles(companyId),
    queryFn: async () =>
      (
        await api.get<Role[]>('/roles', {
          query: { limit: PAGE_SIZES.selector, company_id: companyId ?? undefined },
        })
      ).data,
    enabled: companyId !== null,
    staleTime: 30_000,
  });
}

export const userActions = {
  changeRole: (id: number, roleId: number) => api.put<UserRow>(`/users/${id}/role`, { role_id: roleId }),
  move: (userIds: number[], companyId: number) =>
    api.post<UsersMoved>('/users/move', {
      user_ids: userIds,
      company_id: companyId,
    }),
};

export const invitationActions = {
  resend: (id: number) => api.post<Json<InvitationSent>>(`/invitations/${id}/resend`, {}),
  revoke: (id: number) => api.delete<IdResult>(`/invitations/${id}`),
};
