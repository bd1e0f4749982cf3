import { z } from 'zod';
import { BRAND_COLOUR as COLOUR, BRAND_DEFAULTS as D } from '../brand';
import {
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';
import { atMostChars, body, flag, instantOrText, listOf, text as textOf, whole } from './messages';

/** A name or a one-line label of the brand: shown on every page, so nothing hidden in it. */
const text = (label: string, max: number) =>
  textOf(label).trim().max(max, atMostChars(label, max)).refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);
/** Text that may run over lines. */
const multiline = (label: string, max: number) =>
  textOf(label)
    .trim()
    .max(max, atMostChars(label, max))
    .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);
/**
 * An image of this console, by its path ('/favicon.svg', or an uploaded image's
 * '/api/brands/3/images/logo?v=...'): never another site's address, which would let the
 * brand make every visitor's browser call it, nor a `javascript:` or `data:` URL.
 */
const path = (label: string) =>
  textOf(label)
    .trim()
    .max(500, atMostChars(label, 500))
    .regex(/^(|\/(?!\/)[^\s\\]*)$/, `${label} must be a path on this console, such as /favicon.svg`);

/** Routes a brand may not hide: the pages that edit brands. */
const KEPT_ROUTES = ['system.brands', 'system.brand'];

/** Brand settings of product §1. `default` is true for the product's own look. */
export const brandSchema = body(
  {
    main_color: textOf('Main colour').regex(COLOUR, 'Enter a colour as #RRGGBB').default(D.main_color),
    company_name: text('Company name', 100).default(D.company_name),
    app_name: text('App name', 60).default(D.app_name),
    full_app_name: text('Full app name', 120).default(D.full_app_name),
    logo_subtext: text('Logo subtext', 60).default(D.logo_subtext),
    title_text: text('Title text', 120).default(D.title_text),
    buy_link: z
      .union(
        [z.url({ protocol: /^https?$/, error: 'Buy link must be an http or https address' }), z.literal('')],
        { error: 'Buy link must be an http or https address' },
      )
      .default(''),
    buy_notice: multiline('Buy notice', 500).default(D.buy_notice),
    /** Route names hidden from navigation and redirected away from (product §2, §5). */
    disabled_routes: listOf(textOf('Route name').max(100, atMostChars('Route name', 100)), 'Disabled routes')
      .max(200, 'At most 200 disabled routes')
      // Hiding the brands pages would lock the super admin out of undoing it on that host.
      .refine(
        (names) => !names.some((name) => KEPT_ROUTES.includes(name)),
        'The brands pages cannot be hidden',
      )
      .default([]),
    branded_devices: listOf(
      body(
        {
          original_model: text('Original model', 60),
          branded_model: text('Branded model', 60),
          branded_model_image: path('Branded model image').default(''),
        },
        'Branded device',
      ),
      'Branded devices',
    )
      .max(500, 'At most 500 branded devices')
      .default([]),
    branded_device_series: listOf(
      body({ original: text('Original series', 60), branded: text('Branded series', 60) }, 'Branded series'),
      'Branded device series',
    )
      .max(100, 'At most 100 branded device series')
      .default([]),
    favicon: path('Favicon').default(D.favicon),
    logo_vector: path('Logo').default(D.logo_vector),
    dark_mode_text_color: z
      .union([textOf('Dark mode text colour').regex(COLOUR, 'Enter a colour as #RRGGBB'), z.literal('')], {
        error: 'Enter a colour as #RRGGBB',
      })
      .default(''),
    default: flag('Default brand').default(true),
  },
  'Brand',
);
export type Brand = z.infer<typeof brandSchema>;

/** The brand used when none has been saved. */
export const DEFAULT_BRAND: Brand = brandSchema.parse({});

/**
 * The host name a brand serves, as the browser's address shows it without the port
 * ('rms.example.com', 'localhost', '127.0.0.1'); compared in lower case.
 */
export const brandHostSchema = textOf('Host name')
  .trim()
  .toLowerCase()
  .max(253, atMostChars('Host name', 253))
  .regex(
    /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    'Enter a host name such as rms.example.com, without a scheme or port',
  );

/**
 * What the super admin sends to create or change a brand: the settings of product §1 and
 * the host name it serves. The default brand serves every host no other brand names, so
 * its host may be left empty; saving a brand as the default makes it the only one, and a
 * brand saved without saying so is not the default.
 */
export const brandInputSchema = brandSchema
  .extend({
    host: brandHostSchema.nullable().default(null),
    // A new brand is not the default unless asked: making one takes the role from another.
    default: flag('Default brand').default(false),
  })
  // Any other brand is served at its host name only: without one, no address would show it.
  .refine((brand) => brand.default || brand.host !== null, {
    path: ['host'],
    message: 'Enter the host name this brand serves; only the default brand may leave it empty',
  });
export type BrandInput = z.infer<typeof brandInputSchema>;

/** A stored brand, as the brands page lists it. */
export const brandRecordSchema = brandSchema.extend({
  id: whole('Brand'),
  host: textOf('Host name').nullable(),
  updated_at: instantOrText('Updated at'),
});
export type BrandRecord = z.infer<typeof brandRecordSchema>;

/**
 * The images a brand may upload (product §1 favicon, logo_vector, and a branded model's
 * branded_model_image, which names its vendor model in the `model` query parameter).
 */
export const BRAND_IMAGE_KINDS = ['favicon', 'logo', 'model'] as const;
export type BrandImageKind = (typeof BRAND_IMAGE_KINDS)[number];
/** How a stored image is keyed: its kind, a model picture with its vendor model ('model:RUT241'). */
export type BrandImageKey = Exclude<BrandImageKind, 'model'> | `model:${string}`;
/** The largest brand image accepted, in bytes. */
export const BRAND_IMAGE_MAX_BYTES = 256 * 1024;

export { brandedModel, brandedModelImage, brandedSeries, sameModel } from '../brand';
