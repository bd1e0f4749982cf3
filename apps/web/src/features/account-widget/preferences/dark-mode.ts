import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { readCookie } from '#src/lib/cookies';

/**
 * Dark mode of product §4: auto (no cookie, follows the operating system), on or off, kept in
 * a cookie so that every page of the console (sign-in included) starts in the right
 * scheme. Mantine applies the result as the page attribute `data-mantine-color-scheme`.
 */
export const DARK_MODE_COOKIE = 'dark_mode';
export const DARK_MODES = ['auto', 'on', 'off'] as const;
export type DarkMode = (typeof DARK_MODES)[number];

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export function readDarkMode(): DarkMode {
  const value = readCookie(DARK_MODE_COOKIE);
  return value === 'on' || value === 'off' ? value : 'auto';
}

export function writeDarkMode(mode: DarkMode): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: Mantine's manager writes synchronously; the Cookie Store API is async and missing in some browsers.
  document.cookie =
    mode === 'auto'
      ? `${DARK_MODE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`
      : `${DARK_MODE_COOKIE}=${mode}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure}`;
}

export function schemeOf(mode: DarkMode): MantineColorScheme {
  return mode === 'on' ? 'dark' : mode === 'off' ? 'light' : 'auto';
}

export function modeOf(scheme: MantineColorScheme): DarkMode {
  return scheme === 'dark' ? 'on' : scheme === 'light' ? 'off' : 'auto';
}

/**
 * Mantine's colour scheme kept in the dark-mode cookie. Cookies raise no event, so a
 * change made in another tab is picked up when this tab gets the focus back.
 */
export function cookieColorSchemeManager(): MantineColorSchemeManager {
  let onFocus: (() => void) | undefined;
  return {
    get: () => schemeOf(readDarkMode()),
    set: (value) => writeDarkMode(modeOf(value)),
    subscribe: (onUpdate) => {
      onFocus = () => onUpdate(schemeOf(readDarkMode()));
      window.addEventListener('focus', onFocus);
    },
    unsubscribe: () => {
      if (onFocus) window.removeEventListener('focus', onFocus);
    },
    clear: () => writeDarkMode('auto'),
  };
}
