import { LANGUAGES } from '@fleetgate/shared/constants';
import { LANGUAGE_STORAGE_KEY, pickLanguage } from '#src/i18n/pick-language';

/**
 * The sign-in page's texts without i18next: its three namespaces of the console's translation
 * files, in the reader's language as the console picks it (i18n/i18n.ts), English underneath.
 * Keys are flat and the only markup is `{{name}}`, so a lookup and a replace are all it takes.
 */

type Texts = Record<string, string>;
export type Namespace = 'account' | 'dialogs' | 'mfa';
const NAMESPACES: readonly Namespace[] = ['account', 'dialogs', 'mfa'];

const english = import.meta.glob<Texts>('../i18n/locales/en/{account,dialogs,mfa}.json', {
  eager: true,
  import: 'default',
});
/** Each bundled language is one file of the build (vite.config.ts), fetched only when picked. */
const bundled = import.meta.glob<Texts>(
  ['../i18n/locales/*/{account,dialogs,mfa}.json', '!../i18n/locales/en/*.json'],
  { import: 'default' },
);

const fileOf = (language: string, namespace: Namespace) => `../i18n/locales/${language}/${namespace}.json`;

let chosen: Partial<Record<Namespace, Texts>> = {};

/** The reader's texts when another language than English is theirs; the page's `lang`. */
export async function loadTexts(): Promise<void> {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  let language: string = pickLanguage(stored, navigator.languages ?? [navigator.language]);
  try {
    if (stored && !LANGUAGES.some((l) => l.code === stored)) {
      // A further language from the server's data directory, as the console reads it.
      const { isExtraLanguage, loadExtraLanguage } = await import('#src/i18n/extra-languages');
      const extra = isExtraLanguage(stored) ? await loadExtraLanguage(stored, NAMESPACES) : {};
      if (Object.keys(extra).length) {
        chosen = extra;
        language = stored;
      }
    } else if (language !== 'en') {
      const loaded = await Promise.all(
        NAMESPACES.map(async (namespace) => [
          namespace,
          (await bundled[fileOf(language, namespace)]?.()) ?? {},
        ]),
      );
      chosen = Object.fromEntries(loaded);
    }
  } catch {
    // The file could not be fetched (a new deployment removed it): the page reads in English.
    language = 'en';
  }
  document.documentElement.lang = language;
}

/** One text, `{{name}}` filled from `values`; English when the reader's language lacks it. */
export function t(namespace: Namespace, key: string, values: Record<string, string> = {}): string {
  const text = chosen[namespace]?.[key] ?? english[fileOf('en', namespace)]?.[key] ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}
