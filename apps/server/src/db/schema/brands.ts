import type { BrandImageKey } from '@fleetgate/shared/schemas/brand';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/** Raw bytes: node-postgres answers a Buffer, PGlite a Uint8Array; both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Brands of product §1, one per host name the console is reached at. The default brand
 * serves every host no other brand names; `settings` holds the brand's fields of
 * `brandSchema` except `default`, which is `is_default` here.
 */
export const brands = pgTable(
  'brands',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The host name, in lower case without a port; null for a default brand that names none. */
    host: text('host'),
    isDefault: boolean('is_default').notNull().default(false),
    settings: jsonb('settings').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('brands_host_key').on(t.host).where(sql`${t.host} is not null`),
    // At most one default brand: every row that is one has the same (constant) key.
    uniqueIndex('brands_default_key').on(t.isDefault).where(sql`${t.isDefault}`),
  ],
);

/**
 * A brand's uploaded favicon, logo or model pictures, served at /api/brands/{id}/images/{kind}
 * (a model picture's key is 'model:' and the vendor model, e.g. 'model:RUT241').
 */
export const brandImages = pgTable(
  'brand_images',
  {
    brandId: integer('brand_id')
      .notNull()
      .references(() => brands.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<BrandImageKey>().notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    /** SHA-256 of the bytes in hex: the ETag, and the `v` of the image's address. */
    digest: text('digest').notNull(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.brandId, t.kind] }),
    check('brand_images_kind_check', sql`${t.kind} in ('favicon', 'logo') or ${t.kind} like 'model:%'`),
  ],
);
