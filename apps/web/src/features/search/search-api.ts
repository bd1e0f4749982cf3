import { PAGE_SIZES } from '@fleetgate/shared/constants';
import { api } from '#src/lib/http/client';
import type { SearchEndpoint, SearchResult } from './registry';

/** Parameters every search request sends (product §7 Search). */
export const SEARCH_FIELDS = ['name', 'email'] as const;
export const RESULT_FIELDS = ['id', 'name', 'status', 'email', 'protocol', 'enabled', 'color'] as const;

export type SearchPage = { results: SearchResult[]; total: number };

export function searchQuery(q: string) {
  return {
    q,
    limit: PAGE_SIZES.search,
    'search-fields': SEARCH_FIELDS,
    fields: RESULT_FIELDS,
  };
}

/** One endpoint's hits: `data` and `meta.total` (product §7 Search). */
export async function searchEndpoint(endpoint: SearchEndpoint, q: string): Promise<SearchPage> {
  const response = await api.get<SearchResult[]>(endpoint.path, { query: searchQuery(q) });
  const total = Number(response.meta?.total ?? response.data.length);
  return { results: response.data, total: Number.isFinite(total) ? total : response.data.length };
}

/** A group's count as product §2 shows it: '10+' above the per-endpoint limit of 10. */
export function countLabel(total: number, limit: number = PAGE_SIZES.search): string {
  return total > limit ? `${limit}+` : String(total);
}
