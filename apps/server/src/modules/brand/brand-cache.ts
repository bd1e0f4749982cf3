import type { BrandRecord } from '@fleetgate/shared/schemas/brand';
import type { Database } from '#src/db/database';

/** The channel of migration 0018_brands_by_host: a brand was created, changed or deleted. */
export const BRAND_CHANNEL = 'fg_brand';

/**
 * How long the brands are kept without being read again. Changes drop them at once; this
 * only bounds what a server serves should a notification be lost with its connection
 * before the reconnection reports the gap.
 */
const KEEP_MS = 60_000;

export type BrandCache = {
  /**
   * The stored brands, read with `load` once and kept until a brand changes. Callers that
   * arrive while they are being read share the one read.
   */
  all(load: () => Promise<BrandRecord[]>): Promise<BrandRecord[]>;
  /**
   * Forgets the brands at once. This server calls it after its own change, so that its
   * next answer shows the change even before the database's notification arrives.
   */
  drop(): void;
  close(): Promise<void>;
};

/**
 * Keeps the brands in memory: they are few and every page load asks for one (GET
 * /api/brand, the sign-in page included). The database announces every change of the
 * brands table to every server on it (the trigger of migration 0018, at commit), and each
 * drops what it kept.
 */
export async function createBrandCache(database: Database, keepMs = KEEP_MS): Promise<BrandCache> {
  let kept: { brands: Promise<BrandRecord[]>; until: number } | undefined;
  const drop = () => {
    kept = undefined;
  };
  const stop = await database.listen(BRAND_CHANNEL, { onMessage: drop, onGap: drop });

  return {
    all(load) {
      const now = Date.now();
      if (kept && kept.until > now) return kept.brands;
      const entry = { brands: load(), until: now + keepMs };
      kept = entry;
      // A change heard while reading has dropped this entry, so what was read is not kept
      // past it; a failed read is not kept at all.
      entry.brands.catch(() => {
        if (kept === entry) drop();
      });
      return entry.brands;
    },
    drop,
    async close() {
      drop();
      await stop();
    },
  };
}
