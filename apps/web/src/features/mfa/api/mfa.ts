import type { OkResult } from '@fleetgate/shared/schemas/api';
import type {
  AuthorizationUrl,
  EmailEnrolment,
  MfaStatus,
  RecoveryCodes,
  TotpEnrolment,
} from '@fleetgate/shared/schemas/mfa';
import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

/** Query keys of the second step (CONVENTIONS example 9). */
export const mfaKeys = {
  all: ['mfa'] as const,
  status: () => [...mfaKeys.all, 'status'] as const,
};

/** GET /user/mfa: the method in use, whether the company requires one, vendor ID. */
export function useMfaStatus() {
  return useQuery({
    queryKey: mfaKeys.status(),
    queryFn: async () => (await api.get<MfaStatus>('/user/mfa')).data,
  });
}

export const mfaActions = {
  startTotp: () => api.post<TotpEnrolment>('/user/mfa/totp', {}),
  confirmTotp: (code: string) => api.post<RecoveryCodes>('/user/mfa/totp/confirm', { code }),
  startEmail: () => api.post<EmailEnrolment>('/user/mfa/email', {}),
  confirmEmail: (sessionId: string, code: string) =>
    api.post<OkResult>('/user/mfa/email/confirm', { session_id: sessionId, code }),
  startVendor: () => api.post<AuthorizationUrl>('/user/mfa/vendor', {}),
  regenerateRecoveryCodes: () => api.post<RecoveryCodes>('/user/mfa/recovery-codes', {}),
  remove: () => api.delete<OkResult>('/user/mfa'),
};
