import {
  Alert,
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  getPrimaryShade,
  lighten,
  type MantineTheme,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import classes from './theme.module.css';

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
  const onLight = readable(parsed.value, tint(parsed.value, input.theme.colors.gray[1]!));
  const onDark = readable(parsed.value, tint(parsed.value, input.theme.colors.dark[6]!));
  return { ...colors, color: `light-dark(${onLight}, ${onDark})` };
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

const AA = 4.5;

function channels(hex: string): [number, number, number] {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? [...value].map((c) => c + c).join('') : value;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance of WCAG 2.1. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of WCAG 2.1 between two hex colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function toHex(rgb: string): string {
  const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(rgb);
  if (!match) return rgb;
  return `#${match
    .slice(1, 4)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** A tenth of `color` over `base`, as Mantine's light variant paints a colour outside the theme. */
function tint(color: string, base: string): string {
  const [c, b] = [channels(color), channels(base)];
  return `#${c
    .map((v, i) =>
      Math.round(v * 0.1 + b[i]! * 0.9)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The colour itself when it reads on `background`, otherwise the nearest shade of it that
 * does: darkened on a light background, lightened on a dark one, in small steps.
 */
export function readable(color: string, background: string): string {
  const lighter = luminance(background) < 0.18;
  let current = color;
  for (let step = 1; contrast(current, background) < AA && step <= 20; step++) {
    current = toHex(lighter ? lighten(color, step * 0.05) : darken(color, step * 0.05));
  }
  return current;
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
  return {
    variables: {},
    light: { ...light, '--app-color-backdrop': gray[0]! },
    dark: { ...dark, '--app-color-backdrop': darkPalette[8]! },
  };
};
