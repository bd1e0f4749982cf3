import { darken, lighten, type MantineColorsTuple, type MantineTheme } from '@mantine/core';

/**
 * Colour arithmetic of WCAG 2.1, for a theme that stays readable whatever colours it is
 * given (a brand's, a tag's): contrast, and the nearest readable shade.
 */

/** WCAG AA for normal text. */
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

export function toHex(rgb: string): string {
  const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(rgb);
  if (!match) return rgb;
  return `#${match
    .slice(1, 4)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** A tenth of `color` over `base`, as Mantine's light variant paints a colour outside the theme. */
export function tint(color: string, base: string): string {
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

/** Ten shades around a brand's main colour, the colour itself where the light scheme's primary sits. */
export function paletteOf(main: string): MantineColorsTuple {
  const lighter = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16].map((amount) => toHex(lighten(main, amount)));
  const darker = [0.14, 0.28, 0.4].map((amount) => toHex(darken(main, amount)));
  return [...lighter, main.toLowerCase(), ...darker] as unknown as MantineColorsTuple;
}

const tintedTexts = new Map<string, string>();

/**
 * The text of a tinted badge in `color` (#RRGGBB), readable on its tint in each scheme. Each
 * colour is worked out once: a table draws one badge per tag per row.
 */
export function tintedText(color: string, resolved: MantineTheme): string {
  let text = tintedTexts.get(color);
  if (text === undefined) {
    const onLight = readable(color, tint(color, resolved.colors.gray[1]!));
    const onDark = readable(color, tint(color, resolved.colors.dark[6]!));
    text = `light-dark(${onLight}, ${onDark})`;
    tintedTexts.set(color, text);
  }
  return text;
}
