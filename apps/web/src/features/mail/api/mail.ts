import type { EmailResult } from '@fleetgate/shared/schemas/api';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type {
  MailLogListQuery,
  MailLogRow,
  MailMessage,
  SmtpConfig,
  SuppressedEmail,
} from '@fleetgate/shared/schemas/mail';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';

export type Paged<T> = { rows: T[]; total: number };
/** The mail log table: search, sort, page and one status. */
type MailLogParams = ListParams & Pick<MailLogListQuery, 'status'>;

/** Query keys (CONVENTIONS example 9). */
export const mailKeys = {
  all: ['mail'] as const,
  logs: (params: MailLogParams) => [...mailKeys.all, 'logs', params] as const,
  message: (id: number) => [...mailKeys.all, 'message', id] as const,
  smtp: () => [...mailKeys.all, 'smtp'] as const,
  suppressed: (params: ListParams) => [...mailKeys.all, 'suppressed', params] as const,
};

async function paged<T>(path: string, query: Record<string, string | number | undefined>): Promise<Paged<T>> {
  const response = await api.get<T[]>(path, { query });
  return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
}

/** mail.logs (product §2): one server page, newest first. */
export function useMailLogs(params: MailLogParams) {
  return useQuery({
    queryKey: mailKeys.logs(params),
    queryFn: () => paged<MailLogRow>('/mail-logs', params),
    placeholderData: keepPreviousData,
  });
}

/** One message with its text (super admin). */
export function useMailMessage(id: number) {
  return useQuery({
    queryKey: mailKeys.message(id),
    queryFn: async () => (await api.get<MailMessage>(`/mail-logs/${id}`)).data,
  });
}

/** The SMTP configuration (product §2 email-smtp); null when none is saved. */
export function fetchSmtpConfig() {
  return api.get<SmtpConfig | null>('/email-smtp', { keepOnRouteChange: true }).then((r) => r.data);
}

export function useSmtpConfig() {
  return useQuery({ queryKey: mailKeys.smtp(), queryFn: fetchSmtpConfig });
}

export function useSuppressed(params: ListParams) {
  return useQuery({
    queryKey: mailKeys.suppressed(params),
    queryFn: () => paged<SuppressedEmail>('/suppressed-emails', params),
    placeholderData: keepPreviousData,
  });
}

export const mailActions = {
  removeSmtp: () => api.delete<null>('/email-smtp'),
  /** removeFromSuppresionList (product §3): DELETE /suppressed-emails/{email}. */
  unsuppress: (email: string) => api.delete<EmailResult>(`/suppressed-emails/${encodeURIComponent(email)}`),
};
