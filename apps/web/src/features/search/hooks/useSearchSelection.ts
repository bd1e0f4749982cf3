import { useState } from 'react';
import { local } from '#src/lib/storage/local-storage';
import type { SearchEndpoint } from '../registry';

/** Local storage key of the chosen endpoints (product §2: saved locally). */
export const SEARCH_SELECTION_KEY = 'search.endpoints';

/** Ids of the chosen endpoints among the available ones; all of them until the user chooses. */
export function selectedIds(stored: unknown, available: readonly SearchEndpoint[]): string[] {
  const ids = available.map((e) => e.id);
  if (!Array.isArray(stored)) return ids;
  return ids.filter((id) => stored.includes(id));
}

/** The chosen endpoints and a setter that keeps the choice in local storage. */
export function useSearchSelection(available: readonly SearchEndpoint[]) {
  const [stored, setStored] = useState<unknown>(() => local.get<unknown>(SEARCH_SELECTION_KEY, null));
  const selected = selectedIds(stored, available);
  const setSelected = (ids: string[]) => {
    // Keep choices about endpoints this user cannot see now (another role, a later feature).
    const others = Array.isArray(stored)
      ? stored.filter((id): id is string => typeof id === 'string' && !available.some((e) => e.id === id))
      : [];
    const next = [...others, ...ids];
    local.set(SEARCH_SELECTION_KEY, next);
    setStored(next);
  };
  return [selected, setSelected] as const;
}
