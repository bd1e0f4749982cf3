import { z } from 'zod';
import {
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';
import { atMostChars, body, flag, listOf, text as textOf } from './messages';

/** A name or a one-line label of the brand: shown on every page, so nothing hidden in it. */
const text = (label: string, max: number) =>
  textOf(label).trim().max(max, atMostChars(label, max)).refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);
/** Text that may run over lines. */
const multiline = (label: string, max: number) =>
  textOf(label)
    .trim()
    .max(max, atMostChars(label, max))
    .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);
/** A path or address of an image. */
const path = (label: string) => textOf(label).max(500, atMostChars(label, 500));
const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Brand settings of product §1. `default` is true for the product's own look. */
export const brandSchema = body(
  {
    main_color: textOf('Main colour').regex(COLOUR, 'Enter a colour as #RRGGBB').default('#1c7ed6'),
    company_name: text('Company name', 100).default('Fleetgate'),
    app_name: text('App name', 60).default('Fleetgate'),
    full_app_name: text('Full app name', 120).default('Fleetgate Remote Management'),
    logo_subtext: text('Logo subtext', 60).default(''),
    title_text: text('Title text', 120).default('Fleetgate'),
    buy_link: z
      .union(
        [z.url({ protocol: /^https?$/, error: 'Buy link must be an http or https address' }), z.literal('')],
        { error: 'Buy link must be an http or https address' },
      )
      .default(''),
    buy_notice: multiline('Buy notice', 500).default(''),
    /** Route names hidden from navigation and redirected away from (product §2, §5). */
    disabled_routes: listOf(textOf('Route name').max(100, atMostChars('Route name', 100)), 'Disabled routes')
      .max(200, 'At most 200 disabled routes')
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
    favicon: path('Favicon').default('/favicon.svg'),
    logo_vector: path('Logo').default(''),
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
