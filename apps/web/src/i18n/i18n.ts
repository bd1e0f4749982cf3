import { LANGUAGES } from '@fleetgate/shared/constants';
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_STORAGE_KEY, pickLanguage } from './pick-language';

export { LANGUAGE_STORAGE_KEY };

type Texts = Record<string, string>;
type Bundle = Record<string, Texts>;

/** The language every other falls back to, and the only one in the first download. */
const FALLBACK = 'en';

/**
 * The English translation files, `locales/en/<namespace>.json`, part of the console's first
 * download: one namespace per feature so that features never edit the same file. Keys are
 * flat ("login.title").
 */
const english = import.meta.glob<Texts>(
  [
    './locales/en/*.json',
    '!./locales/en/{approved-devices,brands,changelog,companies,connect,mail,remote,resources,tags}.json',
  ],
  { eager: true, import: 'default' },
);

/**
 * English namespaces used only by screens outside the landing and the sign-in page (approved
 * devices, brands, the changelog, companies, mail, remote access and the connect screens,
 * resources, tags): fetched with their screen (`loaderWith` in each feature's manifest),
 * not part of the first download. Their other languages are in each language's one file
 * like the rest. A namespace goes here only when no module of the first loads uses it.
 */
const englishOnDemand = import.meta.glob<Texts>(
  './locales/en/{approved-devices,brands,changelog,companies,connect,mail,remote,resources,tags}.json',
  { import: 'default' },
);

/**
 * Every other language's files, fetched when that language is picked: the build puts each
 * language in one file of its own (vite.config.ts), so a language costs one request and a
 * reader of English downloads none of them.
 */
const others = import.meta.glob<Texts>(['./locales/*/*.json', '!./locales/en/*.json'], { import: 'default' });

function split(path: string): { language: string; namespace: string } | undefined {
  const [, language, namespace] = path.match(/\.\/locales\/([^/]+)\/([^/]+)\.json$/) ?? [];
  return language && namespace ? { language, namespace } : undefined;
}

function englishBundle(): Bundle {
  const bundle: Bundle = {};
  for (const [path, texts] of Object.entries(english)) {
    const file = split(path);
    if (file) bundle[file.namespace] = texts;
  }
  return bundle;
}

const loading = new Map<string, Promise<Bundle>>();

/** Every namespace of a bundled language other than English (empty for any other code). */
function loadBundled(language: string): Promise<Bundle> {
  let bundle = loading.get(language);
  if (!bundle) {
    const files = Object.entries(others).filter(([path]) => split(path)?.language === language);
    bundle = Promise.all(
      files.map(async ([path, load]) => [split(path)!.namespace, await load()] as const),
    ).then((entries) => Object.fromEntries(entries));
    // A failed download (a new deployment removed the file) is tried again next time.
    bundle.catch(() => loading.delete(language));
    loading.set(language, bundle);
  }
  return bundle;
}

/**
 * i18next asks for a language it has no texts of (at start, or on changeLanguage) here; a
 * namespace the language lacks reads in English.
 */
const bundledLanguages: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const onDemand = language === FALLBACK ? englishOnDemand[`./locales/en/${namespace}.json`] : undefined;
    if (onDemand) {
      onDemand().then(
        (texts) => callback(null, texts),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
      return;
    }
    loadBundled(language).then(
      (bundle) => callback(null, bundle[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * Starts i18next in the reader's language: English is bundled, another bundled language is
 * fetched before the first screen draws. A further language chosen from the data directory
 * (extra-languages.ts) is fetched first too; when the server has none of its files any
 * more, the console falls back to the usual choice.
 */
export async function initI18n(): Promise<typeof i18next> {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  const resources: Record<string, Bundle> = { [FALLBACK]: englishBundle() };
  const namespaces = Object.keys(resources[FALLBACK] ?? {});
  let lng: string = pickLanguage(stored, navigator.languages ?? [navigator.language]);
  // Only a reader of a further language needs its code (and the schema behind its name rule).
  if (stored && !LANGUAGES.some((language) => language.code === stored)) {
    const { isExtraLanguage, loadExtraLanguage } = await import('./extra-languages');
    // Every namespace, those English loads on demand too: the further language's are small.
    const all = [...namespaces, ...Object.keys(englishOnDemand).map((path) => split(path)!.namespace)];
    const extra = isExtraLanguage(stored) ? await loadExtraLanguage(stored, all).catch(() => ({})) : {};
    if (Object.keys(extra).length) {
      resources[stored] = extra;
      lng = stored;
    }
  }
  await i18next
    .use(bundledLanguages)
    .use(initReactI18next)
    .init({
      resources,
      // Languages outside `resources` come from the backend above.
      partialBundledLanguages: true,
      lng,
      fallbackLng: FALLBACK,
      ns: namespaces,
      defaultNS: 'common',
      keySeparator: false,
      interpolation: { escapeValue: false },
    });
  document.documentElement.lang = lng;
  return i18next;
}

/**
 * Loads a screen's namespace (and its English fallback) before its screen draws, so that no
 * component waits on texts mid-render: `() => withNamespace('remote', () => import('./Page'))`.
 */
export async function withNamespace<T>(namespace: string, load: () => Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([load(), i18next.loadNamespaces(namespace)]);
  return loaded;
}

/** A feature's loader that brings its namespace along: `const load = loaderWith('tags')`. */
export const loaderWith =
  (namespace: string) =>
  <T>(load: () => Promise<T>): Promise<T> =>
    withNamespace(namespace, load);
