import { ACCOUNT_WIDGET_CACHE } from '@fleetgate/shared/constants';
import type { CompanyResources, CreditsSummary } from '@fleetgate/shared/schemas/resources';
import { useQuery } from '@tanstack/react-query';
import { ResponseCache } from '#src/lib/http/cache';
import { api, type Envelope } from '#src/lib/http/client';

/** The account widget's own small cache: 10 s, 10 entries (product §9). */
const widgetCache = new ResponseCache(ACCOUNT_WIDGET_CACHE.ttlMs, ACCOUNT_WIDGET_CACHE.maxEntries);

async function widgetGet<T>(path: string): Promise<Envelope<T>> {
  const hit = widgetCache.get<Envelope<T>>(path);
  if (hit) return hit;
  // Header widgets survive route changes (product §7 General).
  const response = await api.get<T>(path, { keepOnRouteChange: true });
  widgetCache.set(path, response);
  return response;
}

export const accountWidgetKeys = {
  all: ['account-widget'] as const,
  company: (id: number) => [...accountWidgetKeys.all, 'company', id] as const,
  creditsSummary: () => [...accountWidgetKeys.all, 'credits-summary'] as const,
};

export function useCompanyData(id: number, enabled: boolean) {
  return useQuery({
    queryKey: accountWidgetKeys.company(id),
    queryFn: async () => (await widgetGet<CompanyResources>(`/companies/${id}`)).data,
    enabled,
    staleTime: ACCOUNT_WIDGET_CACHE.ttlMs,
    retry: false,
  });
}

/** The credits left of one type, as the summary shows them (a sum of the server's entries). */
export type CreditCount = { type: string; name: string; left: number };

/** data.credits.left entries summed per credit type (product §7 Data reads). */
export function sumCreditsPerType(body: CreditsSummary | undefined): CreditCount[] {
  const totals = new Map<string, CreditCount>();
  for (const entry of body?.credits?.left ?? []) {
    const type = String(entry.credit_type);
    const current = totals.get(type) ?? { type, name: entry.credit_type_name, left: 0 };
    current.left += Number(entry.credits_left) || 0;
    totals.set(type, current);
  }
  return [...totals.values()];
}

/** Per-type credit counts; the query fails (and the section hides) while the server has no such read. */
export function useCreditsSummary(enabled: boolean) {
  return useQuery({
    queryKey: accountWidgetKeys.creditsSummary(),
    queryFn: async () => sumCreditsPerType((await widgetGet<CreditsSummary>('/credits/summary')).data),
    enabled,
    staleTime: ACCOUNT_WIDGET_CACHE.ttlMs,
    retry: false,
  });
}
