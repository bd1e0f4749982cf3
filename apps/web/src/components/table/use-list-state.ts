import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

export type ListState = {
  /** What the search box shows. */
  input: string;
  setInput(value: string): void;
  /** The search sent to the server (debounced, product §9 500 ms). */
  q: string;
  sort: string;
  /** Sorts by a field; the same field again flips the direction. */
  toggleSort(field: string): void;
  page: number;
  setPage(page: number): void;
  limit: number;
  offset: number;
};

/**
 * Search, sort and page of a server-paged table, kept in the URL (`?q=&sort=&page=`) so
 * that 'View in table' from the global search (product §2, e.g. `/users?q=`) and the back
 * button land on the same rows. `prefix` keeps two tables on one page apart.
 */
export function useListState(options: { defaultSort: string; pageSize: number; prefix?: string }): ListState {
  const [params, setParams] = useSearchParams();
  const prefix = options.prefix ?? '';
  const urlQ = params.get(`${prefix}q`) ?? '';
  const sort = params.get(`${prefix}sort`) ?? options.defaultSort;
  const page = Math.max(1, Number(params.get(`${prefix}page`)) || 1);
  const [input, setInput] = useState(urlQ);
  const [debounced] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(`${prefix}${name}`);
            else next.set(`${prefix}${name}`, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams, prefix],
  );

  // The search typed here goes to the URL, and a new search starts at the first page.
  const written = useRef(urlQ);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed search settles.
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    update({ q: debounced, page: null });
  }, [debounced]);
  // A search put in the URL from outside (the global search's 'View in table') fills the box.
  useEffect(() => {
    if (urlQ === written.current) return;
    written.current = urlQ;
    setInput(urlQ);
  }, [urlQ]);

  return {
    input,
    setInput,
    q: urlQ,
    sort,
    toggleSort: (field) => {
      const next = sort === field ? `-${field}` : field;
      update({ sort: next === options.defaultSort ? null : next, page: null });
    },
    page,
    setPage: (value) => update({ page: value > 1 ? String(value) : null }),
    limit: options.pageSize,
    offset: (page - 1) * options.pageSize,
  };
}
