import { z } from 'zod';
import {
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';

/** A name or a one-line label of the brand: shown on every page, so nothing hidden in it. */
const text = (max: number) => z.string().trim().max(max).refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);
/** Text that may run over lines. */
const multiline = (max: number) =>
  z.string().trim().max(max).refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);

/** Brand settings of spec §1. `default` is true for the product's own look. */
export const brandSchema = z.strictObject({
  main_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Enter a colour as #RRGGBB')
    .default('#1c7ed6'),
  company_name: text(100).default('Fleetgate'),
  app_name: text(60).default('Fleetgate'),
  full_app_name: text(120).default('Fleetgate Remote Management'),
  logo_subtext: text(60).default(''),
  title_text: text(120).default('Fleetgate'),
  buy_link: z.union([z.url({ protocol: /^https?$/ }), z.literal('')]).default(''),
  buy_notice: multiline(500).default(''),
  /** Route names hidden from navigation and redirected away from (spec §2, §5). */
  disabled_routes: z.array(z.string().max(100)).max(200).default([]),
  branded_devices: z
    .array(
      z.strictObject({
        original_model: text(60),
        branded_model: text(60),
        branded_model_image: z.string().max(500).default(''),
      }),
    )
    .max(500)
    .default([]),
  branded_device_series: z
    .array(z.strictObject({ original: text(60), branded: text(60) }))
    .max(100)
    .default([]),
  favicon: z.string().max(500).default('/favicon.svg'),
  logo_vector: z.string().max(500).default(''),
  dark_mode_text_color: z.union([z.string().regex(/^#[0-9a-fA-F]{6}$/), z.literal('')]).default(''),
  default: z.boolean().default(true),
});
export type Brand = z.infer<typeof brandSchema>;

/** The brand used when none has been saved. */
export const DEFAULT_BRAND: Brand = brandSchema.parse({});
