import { BRAND_DEFAULTS, type BrandSettings } from '@fleetgate/shared/brand';
import {
  Alert,
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  getPrimaryShade,
  type MantineTheme,
  mergeThemeOverrides,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import { contrast, paletteOf, readable, tintedText, toHex } from '#src/lib/colour';
import classes from './theme.module.css';

export { contrast, readable };

/**
 * A tinted badge in a colour of the user's choosing (a tag's colour) writes its text in that
 * colour on a tenth of it: the text is moved until it reads on that tint, per scheme (CSS
 * light-dark() follows the color-scheme Mantine sets on the root).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? '', theme: input.theme });
  if (parsed.isThemeColor || !/^#[0-9a-f]{6}$/i.test(parsed.value)) return colors;
  return { ...colors, color: tintedText(parsed.value, input.theme) };
};

/**
 * The console's theme. Mantine's palette is kept; only the shades that carry text are moved
 * until they reach the WCAG AA contrast of 4.5:1 (normal text) against what they sit on, in
 * both colour schemes: the e2e accessibility check (axe-core) holds every screen to it.
 */
export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'blue',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  components: {
    Alert: Alert.extend({ classNames: { message: classes.alertMessage } }),
  },
});

/**
 * The theme of a brand (product §1): its main colour drives the primary colour of both
 * schemes, and its dark-mode text colour the text of the dark one. Both only through the
 * readable shades below, so a brand cannot make the console unreadable, and only as
 * #RRGGBB values (checked when the brand is read), so a brand cannot write CSS.
 */
export function brandTheme(brand: BrandSettings) {
  const main = brand.main_color.toLowerCase();
  if (main === BRAND_DEFAULTS.main_color && !brand.dark_mode_text_color) return theme;
  return mergeThemeOverrides(
    theme,
    createTheme({
      ...(main === BRAND_DEFAULTS.main_color
        ? {}
        : { colors: { brand: paletteOf(main) }, primaryColor: 'brand' }),
      other: { darkModeText: brand.dark_mode_text_color },
    }),
  );
}

/**
 * Per colour: the filled variant (white text: buttons, filled badges) and the light variant's
 * text (tinted badges, alerts, avatars' initials) at AA; dimmed text readable on the body and
 * on the tinted rows and panels of tables and the sign-in page; links inside an alert take the
 * alert's own readable colour (theme.module.css).
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved: MantineTheme) => {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  const lightShade = getPrimaryShade(resolved, 'light');
  const darkShade = getPrimaryShade(resolved, 'dark');
  const white = resolved.white;
  const { gray, dark: darkPalette } = resolved.colors;
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (name === 'dark') continue;
    const filledLight = readable(shades[lightShade]!, white);
    const filledDark = readable(shades[darkShade]!, white);
    light[`--mantine-color-${name}-filled`] = filledLight;
    light[`--mantine-color-${name}-filled-hover`] = toHex(darken(filledLight, 0.1));
    light[`--mantine-color-${name}-outline`] = filledLight;
    light[`--mantine-color-${name}-light-color`] = readable(shades[9]!, shades[1]!);
    dark[`--mantine-color-${name}-filled`] = filledDark;
    dark[`--mantine-color-${name}-filled-hover`] = toHex(darken(filledDark, 0.1));
  }
  light['--mantine-color-anchor'] = readable(resolved.colors[resolved.primaryColor]![lightShade]!, white);
  light['--mantine-color-dimmed'] = readable(gray[6]!, gray[1]!);
  dark['--mantine-color-dimmed'] = readable(darkPalette[2]!, darkPalette[6]!);
  const darkModeText = resolved.other.darkModeText as string | undefined;
  if (darkModeText) dark['--mantine-color-text'] = readable(darkModeText, darkPalette[7]!);
  return {
    variables: {},
    light: { ...light, '--app-color-backdrop': gray[0]! },
    dark: { ...dark, '--app-color-backdrop': darkPalette[8]! },
  };
};
