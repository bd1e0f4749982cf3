import { LANGUAGES } from '@fleetgate/shared/constants';
import { LOCALE_CODE_PATTERN } from '@fleetgate/shared/locale-code';
import type { ExtraLanguage } from '@fleetgate/shared/schemas/locales';
import { api } from '../lib/http/client';

const BUNDLED: ReadonlySet<string> = new Set(LANGUAGES.map((l) => l.code));

/** Whether `code` may name a further language (a translation folder in DATA_DIR/locales). */
export function isExtraLanguage(code: string | null): code is string {
  return code !== null && !BUNDLED.has(code) && LOCALE_CODE_PATTERN.test(code);
}

/** The further languages the server has (GET /locales); none when it cannot say. */
export async function fetchExtraLanguages(): Promise<ExtraLanguage[]> {
  return (await api.get<ExtraLanguage[]>('/locales', { noRefresh: true, keepOnRouteChange: true })).data;
}

/**
 * The namespaces of a further language that the server has; a namespace it lacks is
 * left out, so its keys show in English.
 */
export async function loadExtraLanguage(
  code: string,
  namespaces: readonly string[],
): Promise<Record<string, Record<string, string>>> {
  const loaded = await Promise.all(
    namespaces.map(async (namespace) => {
      try {
        const texts = (
          await api.get<Record<string, string>>(`/locales/${code}/${namespace}`, { noRefresh: true })
        ).data;
        return [namespace, texts] as const;
      } catch {
        return undefined;
      }
    }),
  );
  return Object.fromEntries(loaded.filter((entry) => entry !== undefined));
}
