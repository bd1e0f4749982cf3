import type { BrandSettings } from '@fleetgate/shared/brand';
import { readDarkMode } from '#src/features/account-widget/preferences/dark-mode';
import { paletteOf, readable } from '#src/lib/colour';

/** What the console's theme puts text on (app/theme.ts): white, and Mantine's dark body. */
const WHITE = '#ffffff';
const DARK_BODY = '#242424';

/**
 * The brand's colours on the sign-in page, as the console's theme derives them: its main
 * colour fills the primary button in each scheme at the shade the theme uses, moved until
 * white text reads on it; its dark-mode text colour, when set, moved until it reads on the
 * dark body. Only #RRGGBB values reach here (lib/brand/brand.ts readBrand), set through the
 * style object, so a brand cannot write CSS.
 */
export function wearBrand(brand: BrandSettings): void {
  const palette = paletteOf(brand.main_color);
  const style = document.documentElement.style;
  style.setProperty('--sign-in-primary-light', readable(palette[6]!, WHITE));
  style.setProperty('--sign-in-primary-dark', readable(palette[8]!, WHITE));
  if (brand.dark_mode_text_color)
    style.setProperty('--sign-in-text-dark', readable(brand.dark_mode_text_color, DARK_BODY));
}

/**
 * Dark mode of product §4 from its cookie, on the attribute the console's theme uses:
 * 'auto' follows the operating system, also when it changes while the page is open.
 */
export function followColourScheme(): void {
  const mode = readDarkMode();
  const system = window.matchMedia?.('(prefers-color-scheme: dark)');
  const apply = () => {
    const dark = mode === 'on' || (mode === 'auto' && Boolean(system?.matches));
    document.documentElement.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
  };
  apply();
  if (mode === 'auto') system?.addEventListener('change', apply);
}
