import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '#src/db/database';

/**
 * Rows per stretch of the name order when they are drawn (schema/devices.ts
 * deviceSearchBuckets): a deep page by offset adds up one count per stretch and company,
 * then walks at most one stretch. At 1M devices, 245 stretches.
 */
export const BUCKET_ROWS = 4096;

type Shape = { largest: number; stretches: number; total: number };

/** Only this file draws the stretches; triggers keep their counts (migration 0011). */
export const deviceBuckets = {
  /** The largest stretch, how many there are and the rows in all (every company together). */
  async shape(db: Db): Promise<Shape> {
    const [shape] = rowsOf<Shape>(
      await db.execute(sql`
        select coalesce(max(t), 0)::int as largest, count(*)::int as stretches, coalesce(sum(t), 0)::int as total
        from (select sum(n) as t from device_search_buckets group by lo_name, lo_id) s`),
    );
    return shape!;
  },

  /**
   * Redraws the stretches every `size` rows of the name order when they have grown uneven:
   * one twice too long (new devices all fall into the stretch their name sorts into) or
   * many more than needed (after deletions). Writers of devices wait meanwhile (a lock on
   * device_search); readers do not. Runs with the server's hourly maintenance.
   */
  async rebalance(db: Db, options: { size?: number; force?: boolean } = {}): Promise<boolean> {
    const size = options.size ?? BUCKET_ROWS;
    return db.transaction(async (tx) => {
      await tx.execute(sql`lock table device_search in share row exclusive mode`);
      const { largest, stretches, total } = await deviceBuckets.shape(tx as unknown as Db);
      const uneven = largest > 2 * size || stretches > 2 * (Math.ceil(total / size) + 1);
      if (!uneven && !options.force) return false;
      await tx.execute(sql`delete from device_search_buckets`);
      await tx.execute(sql`insert into device_search_buckets values ('', 0, 0, 0)`);
      // Stretch k holds rows k·size … (k+1)·size − 1 of the name order; the first one starts
      // before any name, so a name sorting before every present one still has a stretch.
      await tx.execute(sql`
        insert into device_search_buckets (lo_name, lo_id, company_id, n)
        with ranked as (
          select name, device_id, company_id,
                 (row_number() over (order by name, device_id) - 1) / ${size}::int as k
          from device_search
        ), starts as (
          select distinct on (k) k, name, device_id from ranked order by k, name, device_id
        )
        select case when r.k = 0 then '' else s.name end, case when r.k = 0 then 0 else s.device_id end,
               r.company_id, count(*)::int
        from ranked r join starts s using (k)
        group by 1, 2, 3`);
      return true;
    });
  },
};
