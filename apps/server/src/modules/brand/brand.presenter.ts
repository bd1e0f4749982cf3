import { type Brand, type BrandRecord, brandSchema, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { BrandRow } from './brand.repository';

/** The settings a brand row stores: every field of the brand but `default`, the row's own flag. */
const settingsSchema = brandSchema.omit({ default: true });
export type BrandSettings = Omit<Brand, 'default'>;

const { default: _default, ...DEFAULT_SETTINGS } = DEFAULT_BRAND;

/**
 * A stored brand's settings over the defaults. A field that no longer passes the rules (a
 * favicon saved as another site's address before paths were required, a value written by
 * hand) falls back to its default alone, so the rest of the brand still shows.
 */
export function storedSettings(value: unknown): BrandSettings {
  const input: Record<string, unknown> =
    value && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
  delete input.default;
  // Each round drops the fields the previous one refused; they are few.
  for (let round = 0; round < 3; round++) {
    const parsed = settingsSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) delete input[key];
      else if (issue.path.length > 0) delete input[String(issue.path[0])];
    }
  }
  return DEFAULT_SETTINGS;
}

/** What a brand row stores in `settings`: the brand without `default` and `host`, its own columns. */
export function settingsOf(brand: Brand & { host?: string | null }): BrandSettings {
  const { default: _flag, host: _host, ...settings } = brand;
  return settings;
}

/** A stored brand as the brands page lists it. */
export function presentBrandRecord(row: BrandRow): BrandRecord {
  return {
    ...storedSettings(row.settings),
    default: row.isDefault,
    id: row.id,
    host: row.host,
    updated_at: row.updatedAt,
  };
}

/** The brand a page shows, from its record. */
export function brandOf(record: BrandRecord): Brand {
  const { id: _id, host: _host, updated_at: _updated, ...brand } = record;
  return brand;
}
