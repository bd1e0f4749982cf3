import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
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

/** Starts i18next with every bundled language; English fills any gap. */
export async function initI18n(): Promise<typeof i18next> {
  const lng = pickLanguage(
    localStorage.getItem(LANGUAGE_STORAGE_KEY),
    navigator.languages ?? [navigator.language],
  );
  const resources = bundledResources();
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
