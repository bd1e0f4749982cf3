import type { LanguageCode } from '@fleetgate/shared/constants';

/** Where the reader's choice of language is kept (local storage). */
export const LANGUAGE_STORAGE_KEY = 'language';

const BY_PREFIX: Record<string, LanguageCode> = {
  en: 'en',
  nb: 'nb',
  nn: 'nb',
  no: 'nb',
  ja: 'ja',
  uk: 'uk',
};
/** Countries whose people read one of our languages even when the browser says otherwise. */
const BY_COUNTRY: Record<string, LanguageCode> = { NO: 'nb', JP: 'ja', UA: 'uk' };

/**
 * The console's language (product §2 Header: chosen from browser languages and country):
 * a stored choice wins; else the first browser language we speak; else the country of
 * a browser locale; else English.
 */
export function pickLanguage(stored: string | null, browserLanguages: readonly string[]): LanguageCode {
  if (stored && Object.values(BY_PREFIX).includes(stored as LanguageCode)) return stored as LanguageCode;
  for (const tag of browserLanguages) {
    const prefix = tag.toLowerCase().split('-')[0] ?? '';
    const hit = BY_PREFIX[prefix];
    if (hit) return hit;
  }
  for (const tag of browserLanguages) {
    const country = tag.split('-')[1]?.toUpperCase();
    const hit = country ? BY_COUNTRY[country] : undefined;
    if (hit) return hit;
  }
  return 'en';
}
