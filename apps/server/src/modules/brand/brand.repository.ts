import type { BrandImageKey } from '@fleetgate/shared/schemas/brand';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { brandImages, brands } from '#src/db/schema/brands';

export type BrandRow = typeof brands.$inferSelect;
export type BrandValues = { host: string | null; isDefault: boolean; settings: Record<string, unknown> };
export type BrandImage = { contentType: string; bytes: Buffer; digest: string };

/** Only this file reads and writes brands and their images. */
export const brandRepository = {
  /** Every brand, the default first, then by host name. */
  all(db: Db): Promise<BrandRow[]> {
    return db
      .select()
      .from(brands)
      .orderBy(desc(brands.isDefault), sql`${brands.host} asc nulls last`, asc(brands.id));
  },

  async find(db: Db, id: number): Promise<BrandRow | undefined> {
    const [row] = await db.select().from(brands).where(eq(brands.id, id)).limit(1);
    return row;
  },

  /**
   * Makes the brand changes of concurrent transactions wait for one another, so the host
   * and default rules are checked against what is committed. Readers are not held up.
   */
  async lock(db: Db): Promise<void> {
    await db.execute(sql`lock table ${brands} in exclusive mode`);
  },

  /** The brand that serves a host name, other than `except`. */
  async hostOwner(db: Db, host: string, except?: number): Promise<number | undefined> {
    const [row] = await db
      .select({ id: brands.id })
      .from(brands)
      .where(and(eq(brands.host, host), except === undefined ? undefined : ne(brands.id, except)))
      .limit(1);
    return row?.id;
  },

  async insert(db: Db, values: BrandValues): Promise<BrandRow> {
    const [row] = await db.insert(brands).values(values).returning();
    return row!;
  },

  async update(db: Db, id: number, values: Partial<BrandValues>): Promise<BrandRow> {
    const [row] = await db
      .update(brands)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(brands.id, id))
      .returning();
    return row!;
  },

  /** Makes every brand but `except` non-default. */
  async clearDefault(db: Db, except?: number): Promise<void> {
    await db
      .update(brands)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(brands.isDefault, true), except === undefined ? undefined : ne(brands.id, except)));
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(brands).where(eq(brands.id, id));
  },

  async image(db: Db, brandId: number, kind: BrandImageKey): Promise<BrandImage | undefined> {
    const [row] = await db
      .select({ contentType: brandImages.contentType, bytes: brandImages.bytes, digest: brandImages.digest })
      .from(brandImages)
      .where(and(eq(brandImages.brandId, brandId), eq(brandImages.kind, kind)))
      .limit(1);
    return row;
  },

  async putImage(db: Db, brandId: number, kind: BrandImageKey, image: BrandImage): Promise<void> {
    const now = new Date();
    await db
      .insert(brandImages)
      .values({ brandId, kind, ...image, updatedAt: now })
      .onConflictDoUpdate({
        target: [brandImages.brandId, brandImages.kind],
        set: { ...image, updatedAt: now },
      });
  },
};
