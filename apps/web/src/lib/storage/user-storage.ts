import { PAGE_SIZES } from '@fleetgate/shared/constants';
import type { StorageRecord } from '@fleetgate/shared/schemas/storage';
import { useSyncExternalStore } from 'react';
import { api } from '../http/client';

/**
 * Per-user storage of product §7 Storage: loaded once in pages of 100, changed locally at
 * once and on the server behind; failures are silent (a preference is never worth an
 * error message).
 */
/** product §7 Storage: storage calls skip the pending-request list (never cancelled by navigation). */
const KEEP = { keepOnRouteChange: true } as const;

class UserStorage {
  private values = new Map<string, unknown>();
  private listeners = new Set<() => void>();
  private version = 0;

  async load(): Promise<void> {
    try {
      for (let offset = 0; ; offset += PAGE_SIZES.storage) {
        const page = await api.get<StorageRecord[]>('/storage', {
          query: { limit: PAGE_SIZES.storage, offset },
          ...KEEP,
        });
        for (const record of page.data) this.values.set(record.key, record.value);
        const total = Number(page.meta?.total ?? 0);
        if (page.data.length < PAGE_SIZES.storage || offset + PAGE_SIZES.storage >= total) break;
      }
      this.emit();
    } catch {
      // product §7: storage failures are silent.
    }
  }

  /** Whether the user has a record under `key` (as loaded, and changed here since). */
  has(key: string): boolean {
    return this.values.has(key);
  }

  get<T>(key: string, fallback: T): T {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }

  set(key: string, value: unknown): void {
    const exists = this.values.has(key);
    this.values.set(key, value);
    this.emit();
    const call = exists
      ? api.put(`/storage/${encodeURIComponent(key)}`, { value }, KEEP)
      : api.post('/storage', { key, value }, KEEP);
    call.catch(() => {});
  }

  remove(key: string): void {
    if (!this.values.delete(key)) return;
    this.emit();
    api.delete(`/storage/${encodeURIComponent(key)}`, KEEP).catch(() => {});
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.version;

  private emit() {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

export const userStorage = new UserStorage();

/** A stored value and its setter; re-renders when it changes. */
export function useUserStorage<T>(key: string, fallback: T): [T, (value: T) => void] {
  useSyncExternalStore(userStorage.subscribe, userStorage.snapshot);
  return [userStorage.get(key, fallback), (value: T) => userStorage.set(key, value)];
}
