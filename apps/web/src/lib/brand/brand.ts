import { BRAND_COLOUR, BRAND_DEFAULTS, type BrandSettings } from '@fleetgate/shared/brand';
import { api } from '#src/lib/http/client';

/**
 * The brand's settings as the server sent them, each over its default. The server checks
 * them on the way in and out; here each keeps its default unless it has the default's
 * type, and a colour must still look like one before it reaches a style sheet. No schema
 * library: the sign-in page is branded too, and stays light.
 */
export function readBrand(raw: unknown): BrandSettings {
  if (typeof raw !== 'object' || raw === null) return BRAND_DEFAULTS;
  const given = raw as Record<string, unknown>;
  const brand: Record<string, unknown> = { ...BRAND_DEFAULTS };
  for (const [key, fallback] of Object.entries(BRAND_DEFAULTS)) {
    const value = given[key];
    if (Array.isArray(fallback) ? Array.isArray(value) : typeof value === typeof fallback) brand[key] = value;
  }
  const read = brand as BrandSettings;
  if (!BRAND_COLOUR.test(read.main_color)) read.main_color = BRAND_DEFAULTS.main_color;
  if (read.dark_mode_text_color && !BRAND_COLOUR.test(read.dark_mode_text_color))
    read.dark_mode_text_color = '';
  return read;
}

/** The brand of this console's host name (product §1); the default look when it cannot be read. */
export async function loadBrand(): Promise<BrandSettings> {
  try {
    return readBrand((await api.get<unknown>('/brand', { noRefresh: true })).data);
  } catch {
    return BRAND_DEFAULTS;
  }
}

/** The tab's title and icon follow the brand. */
export function showBrandInDocument(brand: BrandSettings): void {
  document.title = brand.title_text || brand.app_name;
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon && brand.favicon && icon.getAttribute('href') !== brand.favicon) {
    icon.removeAttribute('type');
    icon.href = brand.favicon;
  }
}
