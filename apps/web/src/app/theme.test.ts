import { BRAND_DEFAULTS } from '@fleetgate/shared/brand';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { tintedText } from '#src/lib/colour';
import { brandTheme, contrast, cssVariablesResolver, readable, theme } from './theme';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const AA = 4.5;

describe('theme colours that carry text reach WCAG AA (4.5:1)', () => {
  it('keeps a colour that already reads and moves one that does not, toward readable', () => {
    expect(readable('#000000', '#ffffff')).toBe('#000000');
    // Mantine's blue.6 on white is 3.55:1: darkened.
    expect(contrast('#228be6', '#ffffff')).toBeLessThan(AA);
    expect(contrast(readable('#228be6', '#ffffff'), '#ffffff')).toBeGreaterThanOrEqual(AA);
    // Dark grey on a dark panel: lightened.
    expect(contrast(readable('#828282', '#2e2e2e'), '#2e2e2e')).toBeGreaterThanOrEqual(AA);
  });

  it('white on every filled colour, and every light variant text on its tint, in both schemes', () => {
    const { light, dark } = cssVariablesResolver(resolved);
    const failing: string[] = [];
    for (const [name, shades] of Object.entries(resolved.colors)) {
      if (name === 'dark') continue;
      const pairs: [string, string, string][] = [
        [`${name} filled, light`, light[`--mantine-color-${name}-filled`]!, resolved.white],
        [`${name} filled, dark`, dark[`--mantine-color-${name}-filled`]!, resolved.white],
        [`${name} light variant, light`, light[`--mantine-color-${name}-light-color`]!, shades[1]!],
      ];
      for (const [what, fg, bg] of pairs) if (contrast(fg, bg) < AA) failing.push(`${what}: ${fg} on ${bg}`);
    }
    expect(failing).toEqual([]);
    expect(contrast(light['--mantine-color-dimmed']!, resolved.colors.gray[1]!)).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark['--mantine-color-dimmed']!, resolved.colors.dark[6]!)).toBeGreaterThanOrEqual(AA);
    expect(contrast(light['--mantine-color-anchor']!, resolved.white)).toBeGreaterThanOrEqual(AA);
  });

  it("writes a tinted badge in a user's colour (a tag) readably on its tint in both schemes", () => {
    const resolve = resolved.variantColorResolver;
    const { color } = resolve({ color: '#7048e8', theme: resolved, variant: 'light' });
    const [onLight, onDark] = /^light-dark\((#\w+), (#\w+)\)$/.exec(color)!.slice(1) as [string, string];
    expect(contrast(onLight, '#f0edfc')).toBeGreaterThanOrEqual(AA);
    expect(contrast(onDark, '#2c2838')).toBeGreaterThanOrEqual(AA);
    // The devices table's tags, plain elements, take the same text as a Mantine badge.
    expect(tintedText('#7048e8', resolved)).toBe(color);
    // Theme colours keep Mantine's own variables.
    expect(resolve({ color: 'green', theme: resolved, variant: 'light' }).color).toBe(
      'var(--mantine-color-green-light-color)',
    );
  });
});

describe('a brand’s theme (product §1 main_color, dark_mode_text_color)', () => {
  it('makes the main colour the primary one, readable even when it is pale, and the dark text readable', () => {
    const branded = mergeMantineTheme(
      DEFAULT_THEME,
      brandTheme({
        ...BRAND_DEFAULTS,
        main_color: '#ffd43b',
        dark_mode_text_color: '#333333',
        default: false,
      }),
    );
    expect(branded.primaryColor).toBe('brand');
    expect(branded.colors.brand![6]).toBe('#ffd43b');
    const { light, dark } = cssVariablesResolver(branded);
    expect(contrast(light['--mantine-color-brand-filled']!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(light['--mantine-color-anchor']!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark['--mantine-color-text']!, branded.colors.dark[7]!)).toBeGreaterThanOrEqual(AA);
  });

  it('leaves the product’s own theme alone for the default look', () => {
    expect(brandTheme(BRAND_DEFAULTS)).toBe(theme);
  });
});
