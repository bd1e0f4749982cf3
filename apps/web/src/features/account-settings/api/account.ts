import type {
  AccountSession,
  Profile,
  ProfileBody,
  SessionRevoked,
  SessionsRevoked,
  TosResult,
} from '@fleetgate/shared/schemas/account';
import type { IdResult, OkResult } from '@fleetgate/shared/schemas/api';
import type { ImpersonationAccess, ImpersonationRequest } from '@fleetgate/shared/schemas/impersonation';
import type { ApiToken, CreatedToken, CreateTokenBody } from '@fleetgate/shared/schemas/tokens';
import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** Query keys of account settings (CONVENTIONS example 9): a change invalidates what it touched. */
export const accountKeys = {
  all: ['account'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
  tokens: () => [...accountKeys.all, 'tokens'] as const,
  impersonation: () => [...accountKeys.all, 'impersonation'] as const,
};

export function useProfile() {
  return useQuery({
    queryKey: accountKeys.profile(),
    queryFn: async () => (await api.get<Profile>('/user/profile')).data,
  });
}

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions(),
    queryFn: async () => (await api.get<AccountSession[]>('/user/sessions')).data,
  });
}

export function useTokens() {
  return useQuery({
    queryKey: accountKeys.tokens(),
    queryFn: async () => (await api.get<ApiToken[]>('/user/tokens')).data,
  });
}

export function useImpersonationAccess() {
  return useQuery({
    queryKey: accountKeys.impersonation(),
    queryFn: async () => (await api.get<ImpersonationAccess>('/user/impersonation-access')).data,
  });
}

export const accountActions = {
  updateProfile: (body: ProfileBody) => api.put<Profile>('/user/profile', body),
  changePassword: (current_password: string, password: string) =>
    api.put<OkResult>('/user/password', { current_password, password }),
  updateContact: (email: string, username: string) => api.put<Profile>('/user/contact', { email, username }),
  /** product §7 PUT /account/user (the account side; answered under /api here). */
  acceptTerms: () => api.put<TosResult>('/account/user', { tos_accepted: true }),
  revokeSession: (id: string) => api.delete<SessionRevoked>(`/user/sessions/${encodeURIComponent(id)}`),
  revokeOtherSessions: () => api.post<SessionsRevoked>('/user/sessions/revoke-others', {}),
  createToken: (body: CreateTokenBody) => api.post<CreatedToken>('/user/tokens', body),
  revokeToken: (id: number) => api.delete<IdResult>(`/user/tokens/${id}`),
  grantImpersonation: (until: string) =>
    api.post<ImpersonationAccess>('/user/impersonation-access', { until }),
  revokeImpersonation: () => api.post<OkResult>('/user/revoke-impersonation-access', {}),
  lookupRequest: (token: string) =>
    api.post<ImpersonationRequest>('/impersonation/requests/lookup', { token }),
};
