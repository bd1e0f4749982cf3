import { ApiError, NetworkError } from './errors';

/**
 * How a success message of product §8 reads: '{Item} {created|updated|removed|...} successfully':
 * a capital, at least an item and a verb, then 'successfully' ('Saved successfully' names nothing).
 */
const SUCCESS_PATTERN = /^\p{Lu}\S*(\s+\S+)+\s+successfully$/u;

/** The text with its first letter upper-cased ('tag created…' → 'Tag created…'). */
export function upperFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * The generic result messages of product §8: '{Item} {verb past} successfully' on success;
 * on failure the first error message, else 'Failed to {verb} {item} ({statusText or status})',
 * 'Server error' when there was no request at all. `template` is the translated pattern
 * (forms:result.success) when the console speaks another language.
 */
export function successMessage(
  item: string,
  pastVerb: string,
  template: (parts: { item: string; verb: string }) => string = ({ item, verb }) =>
    `${item} ${verb} successfully`,
): string {
  return upperFirst(template({ item, verb: pastVerb }));
}

/** Whether a text follows product §8's success pattern. */
export function isSuccessMessage(text: string | null | undefined): text is string {
  return typeof text === 'string' && SUCCESS_PATTERN.test(text.trim());
}

/**
 * The text of a success toast (product §8: the response's message by default, else the
 * console's own '{Item} {verb} successfully'). The server's message may say more than the
 * pattern ('Invitation created. SMTP is not configured, so the e-mail was not sent…'), so
 * it is kept; where the console shows the answer's summary itself ('Action status', import
 * results), the caller passes `own` to toast its own words and show the summary there, once.
 */
export function successToast(
  serverMessage: string | null | undefined,
  fallback: string,
  options: { own?: boolean } = {},
): string {
  const server = serverMessage?.trim();
  return !options.own && server ? server : fallback;
}

export function failureMessage(error: unknown, verb: string, item: string): string {
  if (error instanceof ApiError) {
    const first = error.errors[0]?.message;
    if (first) return first;
    return `Failed to ${verb} ${item} (${error.statusText || error.status})`;
  }
  if (error instanceof NetworkError) return error.message;
  return 'Server error';
}
