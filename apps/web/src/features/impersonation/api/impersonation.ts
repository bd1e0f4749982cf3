import type { OkResult } from '@fleetgate/shared/schemas/api';
import type {
  ImpersonationAccess,
  ImpersonationCandidate,
  ImpersonationLog,
  LocationResult,
} from '@fleetgate/shared/schemas/impersonation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** Query keys of impersonation (CONVENTIONS example 9). */
export const impersonationKeys = {
  all: ['impersonation'] as const,
  logs: (page: number, pageSize: number, q: string) =>
    [...impersonationKeys.all, 'logs', page, pageSize, q] as const,
  candidates: (q: string) => [...impersonationKeys.all, 'candidates', q] as const,
};

/** One page of users.impersonation-logs: actor, subject, start, end (product §2). */
export function useImpersonationLogs(page: number, pageSize: number, q: string) {
  return useQuery({
    queryKey: impersonationKeys.logs(page, pageSize, q),
    queryFn: async () => {
      const response = await api.get<ImpersonationLog[]>('/impersonation/logs', {
        query: { limit: pageSize, offset: (page - 1) * pageSize, sort: '-started_at', q },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

/** Users below the caller's company, those who granted access first. */
export function useCandidates(q: string, enabled: boolean) {
  return useQuery({
    queryKey: impersonationKeys.candidates(q),
    queryFn: async () =>
      (await api.get<ImpersonationCandidate[]>('/impersonation/candidates', { query: { q, limit: 50 } }))
        .data,
    enabled,
    placeholderData: keepPreviousData,
  });
}

export const impersonationActions = {
  start: (userId: number) => api.post<LocationResult>(`/users/${userId}/impersonate`, {}),
  request: (userId: number) => api.post<OkResult>(`/users/${userId}/impersonation-access-request`, {}),
  /** product §4: cancelling refreshes the token (a fresh session of the actor's own). */
  cancel: () => api.post<LocationResult>('/impersonation/cancel', {}),
  confirm: (token: string, until: string) =>
    api.post<ImpersonationAccess>('/impersonation/requests/confirm', { token, until }),
  decline: (token: string) => api.post<OkResult>('/impersonation/requests/decline', { token }),
};
