import { RESPONSE_CACHE } from '@fleetgate/shared/constants';

type Entry = { at: number; value: unknown };

/**
 * A small response cache (product §9: 5 minutes, up to 100 entries), used by calls that ask
 * for it (selector lists). The oldest entry leaves first.
 */
export class ResponseCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number = RESPONSE_CACHE.ttlMs,
    private readonly maxEntries: number = RESPONSE_CACHE.maxEntries,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown): void {
    this.entries.delete(key);
    this.entries.set(key, { at: this.now(), value });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
