import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES } from '@fleetgate/shared/constants';
import { LOCALE_CODE_PATTERN, LOCALE_NAMESPACE_PATTERN } from '@fleetgate/shared/schemas/locales';

/** Larger files are refused: one namespace of the console is a few kilobytes. */
export const TRANSLATION_FILE_MAX_BYTES = 256 * 1024;
const KEY_MAX = 200;
const TEXT_MAX = 4000;

const BUNDLED: ReadonlySet<string> = new Set(LANGUAGES.map((l) => l.code));

/** The language's own name for itself ('Deutsch' for de), or the code when unknown. */
function nativeName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

/**
 * The translation files an operator adds under DATA_DIR/locales: read from disk at every
 * call (a dropped file counts at once, no restart), never outside that folder (codes and
 * namespaces are checked against their patterns before any path is built).
 */
export function translationFiles(dataDir: string) {
  const root = path.join(dataDir, 'locales');

  return {
    /** Languages with at least one translation file, besides the bundled ones. */
    async languages(): Promise<{ code: string; name: string }[]> {
      const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
      const found: { code: string; name: string }[] = [];
      for (const entry of entries) {
        if (!entry.isDirectory() || !LOCALE_CODE_PATTERN.test(entry.name) || BUNDLED.has(entry.name))
          continue;
        const files = await readdir(path.join(root, entry.name)).catch(() => [] as string[]);
        if (files.some((f) => f.endsWith('.json')))
          found.push({ code: entry.name, name: nativeName(entry.name) });
      }
      return found.sort((a, b) => a.name.localeCompare(b.name));
    },

    /**
     * One namespace of a language, keeping only text values under sane lengths, or
     * undefined when there is no such file or it is not a JSON object of texts.
     */
    async read(code: string, namespace: string): Promise<Record<string, string> | undefined> {
      if (!LOCALE_CODE_PATTERN.test(code) || !LOCALE_NAMESPACE_PATTERN.test(namespace)) return undefined;
      const file = path.join(root, code, `${namespace}.json`);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.size > TRANSLATION_FILE_MAX_BYTES) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(file, 'utf8'));
      } catch {
        return undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
      const texts: Record<string, string> = {};
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === 'string' && key.length <= KEY_MAX && value.length <= TEXT_MAX)
          texts[key] = value;
      }
      return texts;
    },
  };
}
