import { LANGUAGES, type LanguageCode, UI_TIMINGS } from '@fleetgate/shared/constants';
import { LANGUAGE_STORAGE_KEY } from '#src/i18n/i18n';

export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);

/**
 * Keeps the chosen language where i18n reads it at start (local storage `language`) and
 * reloads the console after 1 s (product §4 Timezone and language, §9).
 */
export function chooseLanguage(
  code: LanguageCode | string,
  reload: () => void = () => window.location.reload(),
): ReturnType<typeof setTimeout> {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  return setTimeout(reload, UI_TIMINGS.languageReloadMs);
}
