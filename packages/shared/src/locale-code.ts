/**
 * The shape of a further language's code, apart from the locales' zod schemas
 * (schemas/locales.ts re-exports it): the console checks it on its first load, where zod is
 * not loaded (docs/performance.md, Console first load).
 */

/** A language tag such as `de`, `pt-BR` or `zh-Hant`. */
export const LOCALE_CODE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;
