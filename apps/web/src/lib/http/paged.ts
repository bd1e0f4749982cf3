import { api, type Query } from './client';

/** One page of a list endpoint (ARCHITECTURE §4): its rows and `meta.total`. */
export type Paged<T> = { rows: T[]; total: number };

/** Reads one page of a list endpoint; a list without `meta.total` counts its rows. */
export async function fetchPage<T>(path: string, query: Query): Promise<Paged<T>> {
  const response = await api.get<T[]>(path, { query });
  return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
}
