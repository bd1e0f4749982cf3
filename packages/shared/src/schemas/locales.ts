import { z } from 'zod';
import { LOCALE_CODE_PATTERN } from '../locale-code';
import { fields, text } from './messages';

/**
 * Further languages of the console (product §2 Header widgets 3, 'a long list in a translation
 * widget'): translation files an operator drops into DATA_DIR/locales/{code}/{namespace}.json,
 * served as they are found, with no rebuild (docs/decisions.md, 'Further languages').
 */

export { LOCALE_CODE_PATTERN };
/** Namespaces are the console's own file names (`common`, `devices`, ...). */
export const LOCALE_NAMESPACE_PATTERN = /^[a-z][a-z0-9-]{0,40}$/;

export const localeCodeSchema = text('Language').regex(LOCALE_CODE_PATTERN, 'Unknown language');
export const localeNamespaceSchema = text('Translation file').regex(
  LOCALE_NAMESPACE_PATTERN,
  'Unknown translation file',
);

/** A language found in the data directory, named in itself ('Deutsch'). */
export const extraLanguageSchema = fields('Language', {
  code: text('Language code'),
  name: text('Language name'),
});
export type ExtraLanguage = z.infer<typeof extraLanguageSchema>;

/** One translation file: flat keys to text, as the bundled ones. */
export const translationFileSchema = z.record(z.string(), text('Translation'), {
  error: 'A translation file must be an object of texts',
});
