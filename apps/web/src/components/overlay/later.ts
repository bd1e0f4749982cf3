import { useState } from 'react';

/**
 * A piece of code fetched once, when first wanted: `current` is there from then on, so that
 * what draws it later draws it at once instead of waiting for a promise again. A failed fetch
 * (the network gone) is tried again when next wanted.
 */
export function later<T>(load: () => Promise<T>) {
  let pending: Promise<T> | undefined;
  const piece = {
    current: null as T | null,
    load(): Promise<T> {
      pending ??= load().then(
        (value) => {
          piece.current = value;
          return value;
        },
        (error: unknown) => {
          pending = undefined; // tried again when next wanted
          throw error;
        },
      );
      return pending;
    },
  };
  return piece;
}

export type Later<T> = ReturnType<typeof later<T>>;

/**
 * A component's view of a piece: what it holds (null until it came) and `want`, which fetches
 * it and draws again when it comes. Without the network it stays null, and the next `want`
 * tries again.
 */
export function useLater<T>(piece: Later<T>): [T | null, () => void] {
  const [value, setValue] = useState(() => piece.current);
  const want = () => {
    if (value === null)
      piece.load().then(
        (loaded) => setValue(() => loaded),
        () => {},
      );
  };
  return [value, want];
}
