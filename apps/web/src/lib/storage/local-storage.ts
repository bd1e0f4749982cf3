/**
 * Browser local and session storage read as JSON with a default on missing or
 * unparsable values (product §7 Storage).
 */
function read<T>(store: Storage, key: string, fallback: T): T {
  try {
    const raw = store.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

function write(store: Storage, key: string, value: unknown): void {
  try {
    store.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the preference is simply not kept.
  }
}

export const local = {
  get: <T>(key: string, fallback: T) => read(localStorage, key, fallback),
  set: (key: string, value: unknown) => write(localStorage, key, value),
  remove: (key: string) => localStorage.removeItem(key),
};

export const session = {
  get: <T>(key: string, fallback: T) => read(sessionStorage, key, fallback),
  set: (key: string, value: unknown) => write(sessionStorage, key, value),
  remove: (key: string) => sessionStorage.removeItem(key),
};
