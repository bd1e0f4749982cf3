import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import ja from './locales/ja.json';
import nb from './locales/nb.json';
import uk from './locales/uk.json';
import { pickLanguage } from './pick-language';

export const LANGUAGE_STORAGE_KEY = 'language';

/** Starts i18next with every bundled language; English fills any gap. */
export async function initI18n(): Promise<typeof i18next> {
  const lng = pickLanguage(
    localStorage.getItem(LANGUAGE_STORAGE_KEY),
    navigator.languages ?? [navigator.language],
  );
  await i18next.use(initReactI18next).init({
    resources: {
      en: { translation: en },
      nb: { translation: nb },
      ja: { translation: ja },
      uk: { translation: uk },
    },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lng;
  return i18next;
}
