import { LANGUAGES } from '@fleetgate/shared/constants';
import { describe, expect, it } from 'vitest';

/**
 * Every language of the console (product §2 Header widgets: English, Norwegian, Japanese,
 * Ukrainian) must carry every English key of every namespace, with the same placeholders.
 * English is the source; the namespaces are read from `locales/en/`, so a namespace added
 * by any feature is guarded as soon as its English file exists.
 */
const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', {
  eager: true,
  import: 'default',
});

type Bundle = Record<string, unknown>;
const bundles = new Map<string, Bundle>();
for (const [path, json] of Object.entries(files)) {
  const [, language, namespace] = path.match(/^\.\/locales\/([^/]+)\/([^/]+)\.json$/) ?? [];
  if (language && namespace) bundles.set(`${language}/${namespace}`, json);
}

const SOURCE = 'en';
const TRANSLATIONS = LANGUAGES.map((language) => language.code).filter((code) => code !== SOURCE);
const NAMESPACES = [...bundles.keys()]
  .filter((key) => key.startsWith(`${SOURCE}/`))
  .map((key) => key.slice(SOURCE.length + 1))
  .sort();

/** Namespaces owned by the shell and account pages: these must be complete at all times. */
const REQUIRED_NAMESPACES = ['common', 'shell', 'routes', 'account'];

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** `{{name}}`, `{{name, format}}` and `$t(key)` nesting: what a translation must keep. */
function placeholdersOf(value: string): string[] {
  const found = new Set<string>();
  for (const match of value.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)) found.add(`{{${match[1]}}}`);
  for (const match of value.matchAll(/\$t\(([^),]+)/g)) found.add(`$t(${match[1]?.trim()})`);
  return [...found].sort();
}

type Entry = { placeholders: string[] };
/**
 * The keys of a bundle, plural forms folded into their base key (`devices_one`,
 * `devices_other` → `devices`) since languages have different plural categories.
 */
function entriesOf(bundle: Bundle): Map<string, Entry & { forms: string[] }> {
  const entries = new Map<string, Entry & { forms: string[] }>();
  for (const [key, value] of Object.entries(bundle)) {
    const plural = PLURAL_SUFFIX.exec(key);
    const base = plural ? key.slice(0, plural.index) : key;
    const entry = entries.get(base) ?? { placeholders: [], forms: [] };
    const text = typeof value === 'string' ? value : '';
    entry.placeholders = [...new Set([...entry.placeholders, ...placeholdersOf(text)])].sort();
    if (plural?.[1]) entry.forms.push(plural[1]);
    entries.set(base, entry);
  }
  return entries;
}

/** Everything wrong with one translated file, as readable lines (empty when it is complete). */
function problemsOf(language: string, namespace: string): string[] {
  const source = bundles.get(`${SOURCE}/${namespace}`) ?? {};
  const target = bundles.get(`${language}/${namespace}`);
  if (!target) return [`locales/${language}/${namespace}.json is missing`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(target)) {
    if (typeof value !== 'string' || value.trim() === '')
      problems.push(`${key}: not a non-empty string (keys are flat)`);
  }
  const expected = entriesOf(source);
  const actual = entriesOf(target);
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  for (const [key, entry] of expected) {
    const translated = actual.get(key);
    if (!translated) {
      problems.push(`${key}: missing`);
      continue;
    }
    if (entry.forms.length > 0) {
      for (const category of categories) {
        if (!translated.forms.includes(category)) problems.push(`${key}_${category}: missing plural form`);
      }
    }
    if (translated.placeholders.join(' ') !== entry.placeholders.join(' ')) {
      problems.push(
        `${key}: placeholders [${translated.placeholders.join(' ')}], English has [${entry.placeholders.join(' ')}]`,
      );
    }
  }
  for (const key of actual.keys()) {
    if (!expected.has(key)) problems.push(`${key}: not in English (stale key)`);
  }
  return problems;
}

describe('translations (product §2 Header widgets: four console languages)', () => {
  it('English defines every namespace that must be translated', () => {
    expect(NAMESPACES).toEqual(expect.arrayContaining(REQUIRED_NAMESPACES));
  });

  it('every English file is a flat map of non-empty strings', () => {
    for (const namespace of NAMESPACES) expect(problemsOf(SOURCE, namespace), namespace).toEqual([]);
  });

  describe.each(NAMESPACES)('namespace %s', (namespace) => {
    it.each(TRANSLATIONS)(`%s has every English key with the same placeholders`, (language) => {
      expect(problemsOf(language, namespace)).toEqual([]);
    });
  });
});

describe('the translation check itself', () => {
  it('reads placeholders with formats and nesting', () => {
    expect(placeholdersOf('{{count, number}} of {{ total }} $t(common:app.name)')).toEqual([
      '$t(common:app.name)',
      '{{count}}',
      '{{total}}',
    ]);
  });

  it('folds plural forms into one key', () => {
    const entries = entriesOf({ devices_one: 'One device', devices_other: '{{count}} devices' });
    expect([...entries.keys()]).toEqual(['devices']);
    expect(entries.get('devices')).toEqual({ placeholders: ['{{count}}'], forms: ['one', 'other'] });
  });
});
