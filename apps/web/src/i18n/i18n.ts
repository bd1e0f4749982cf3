import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isExtraLanguage, loadExtraLanguage } from './extra-languages';
import { pickLanguage } from './pick-language';

export const LANGUAGE_STORAGE_KEY = 'language';

/**
 * Every translation file, `locales/<language>/<namespace>.json`: one namespace per
 * feature so that features never edit the same file. Keys are flat ("login.title").
 */
const files = import.meta.glob<{ default: Record<string, string> }>('./locales/*/*.json', { eager: true });

export function bundledResources(): Record<string, Record<string, Record<string, string>>> {
  const resources: Record<string, Record<string, Record<string, string>>> = {};
  for (const [path, module] of Object.entries(files)) {
    const [, language, namespace] = path.match(/\.\/locales\/([^/]+)\/([^/]+)\.json$/) ?? [];
    if (!language || !namespace) continue;
    resources[language] ??= {};
    resources[language][namespace] = module.default;
  }
  return resources;
}

/**
 * Starts i18next with every bundled language; English fills any gap. A further language
 * chosen from the data directory (extra-languages.ts) is fetched first; when the server
 * has none of its files any more, the console falls back to the usual choice.
 */
export async function initI18n(): Promise<typeof i18next> {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  const resources = bundledResources();
  let lng: string = pickLanguage(stored, navigator.languages ?? [navigator.language]);
  if (isExtraLanguage(stored)) {
    const extra = await loadExtraLanguage(stored, Object.keys(resources.en ?? {})).catch(() => ({}));
    if (Object.keys(extra).length) {
      resources[stored] = extra;
      lng = stored;
    }
  }
  await i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: 'en',
    ns: Object.keys(resources.en ?? {}),
    defaultNS: 'common',
    keySeparator: false,
    interpolation: { escapeValue: false },
  });
  document.documentElement.lang = lng;
  return i18next;
}
