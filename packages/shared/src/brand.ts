/**
 * The brand of product §1 without its schema, for code that must stay light (the sign-in
 * page loads no zod): the defaults of every setting, and the names a brand gives models
 * and series. The schema (schemas/brand.ts) takes its defaults from here.
 */

/** A colour as the brand stores it. */
export const BRAND_COLOUR = /^#[0-9a-fA-F]{6}$/;

type BrandedDevice = { original_model: string; branded_model: string; branded_model_image: string };
type BrandedSeries = { original: string; branded: string };

/** Every brand setting, as the brand schema's output carries it. */
export type BrandSettings = {
  main_color: string;
  company_name: string;
  app_name: string;
  full_app_name: string;
  logo_subtext: string;
  title_text: string;
  buy_link: string;
  buy_notice: string;
  disabled_routes: string[];
  branded_devices: BrandedDevice[];
  branded_device_series: BrandedSeries[];
  favicon: string;
  logo_vector: string;
  dark_mode_text_color: string;
  default: boolean;
};

/** The product's own look: what a brand leaves unset. */
export const BRAND_DEFAULTS: BrandSettings = {
  main_color: '#1c7ed6',
  company_name: 'Fleetgate',
  app_name: 'Fleetgate',
  full_app_name: 'Fleetgate Remote Management',
  logo_subtext: '',
  title_text: 'Fleetgate',
  buy_link: '',
  buy_notice: '',
  disabled_routes: [],
  branded_devices: [],
  branded_device_series: [],
  favicon: '/favicon.svg',
  logo_vector: '',
  dark_mode_text_color: '',
  default: true,
};

type ModelOf = { model?: string | null; original_model?: string | null };

/** Whether two model names are the same model: vendors' names are compared without case or padding. */
export function sameModel(a: string | null | undefined, b: string | null | undefined): boolean {
  const left = a?.trim().toUpperCase();
  return Boolean(left) && left === b?.trim().toUpperCase();
}

/** The brand's entry for a device's vendor model (product §1 branded_devices), if any. */
function brandedEntry(brand: Pick<BrandSettings, 'branded_devices'>, device: ModelOf) {
  const vendor = device.original_model ?? device.model;
  return brand.branded_devices.find((d) => sameModel(d.original_model, vendor));
}

/** The model name to show for a device: the brand's name for its vendor model, else its own. */
export function brandedModel(brand: Pick<BrandSettings, 'branded_devices'>, device: ModelOf): string | null {
  return brandedEntry(brand, device)?.branded_model ?? device.model ?? null;
}

/** The brand's picture of a device's model, if it gives one. */
export function brandedModelImage(
  brand: Pick<BrandSettings, 'branded_devices'>,
  device: ModelOf,
): string | undefined {
  return brandedEntry(brand, device)?.branded_model_image || undefined;
}

/** The series name to show (product §1 branded_device_series), compared without case. */
export function brandedSeries(
  brand: Pick<BrandSettings, 'branded_device_series'>,
  series: string | null | undefined,
): string | null {
  if (!series) return null;
  const entry = brand.branded_device_series.find((s) => s.original.toLowerCase() === series.toLowerCase());
  return entry?.branded ?? series;
}
