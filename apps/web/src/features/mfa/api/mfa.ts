import type { MfaStatus, TotpEnrolment } from '@fleetgate/shared/schemas/mfa';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/client';

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
  confirmTotp: (code: string) => api.post<{ recovery_codes: string[] }>('/user/mfa/totp/confirm', { code }),
  startEmail: () => api.post<{ session_id: string; expires_at: string }>('/user/mfa/email', {}),
  confirmEmail: (sessionId: string, code: string) =>
    api.post<{ ok: true }>('/user/mfa/email/confirm', { session_id: sessionId, code }),
  startVendor: () => api.post<{ authorization_url: string }>('/user/mfa/vendor', {}),
  regenerateRecoveryCodes: () => api.post<{ recovery_codes: string[] }>('/user/mfa/recovery-codes', {}),
  remove: () => api.delete<{ ok: true }>('/user/mfa'),
};
