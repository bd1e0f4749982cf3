import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';

/** List input options of product §3 Form field definition. */
export type ListOptions = {
  /** Keys that add the typed item; Enter and comma by default (product §5). */
  addKeys?: readonly string[];
  maxItems?: number;
  /** A duplicate is refused with an error. */
  uniqueItems?: boolean;
  /** A duplicate is dropped quietly (CSV uploads of long lists). */
  noDupes?: boolean;
  /** Item type: numbers are converted (product §5 numeric conversion). */
  type?: 'text' | 'number' | 'email';
  pattern?: string;
  min?: number;
  max?: number;
  minItemLength?: number;
  maxItemLength?: number;
  showCsvUpload?: boolean;
};

export type ListItem = string | number;

export type ListError =
  | { code: 'blank' }
  | { code: 'duplicate'; value: string }
  | { code: 'maxItems'; limit: number }
  | { code: 'number'; value: string }
  | { code: 'min' | 'max'; value: string; limit: number }
  | { code: 'minLength' | 'maxLength'; value: string; limit: number }
  | { code: 'pattern'; value: string };

export const DEFAULT_ADD_KEYS = ['Enter', ','] as const;

/** Checks one trimmed item against the options; returns the stored value or the error. */
export function checkItem(text: string, options: ListOptions): { value: ListItem } | { error: ListError } {
  if (!text) return { error: { code: 'blank' } };
  if (options.minItemLength !== undefined && text.length < options.minItemLength)
    return { error: { code: 'minLength', value: text, limit: options.minItemLength } };
  if (options.maxItemLength !== undefined && text.length > options.maxItemLength)
    return { error: { code: 'maxLength', value: text, limit: options.maxItemLength } };
  if (options.pattern && !new RegExp(`^(?:${options.pattern})$`, 'u').test(text))
    return { error: { code: 'pattern', value: text } };
  if (options.type === 'number') {
    const number = Number(text);
    if (!Number.isFinite(number)) return { error: { code: 'number', value: text } };
    if (options.min !== undefined && number < options.min)
      return { error: { code: 'min', value: text, limit: options.min } };
    if (options.max !== undefined && number > options.max)
      return { error: { code: 'max', value: text, limit: options.max } };
    return { value: number };
  }
  return { value: text };
}

/**
 * Adds items one by one (product §5 List input): each is trimmed; blanks are refused;
 * duplicates refused (uniqueItems) or dropped (noDupes); the maximum count holds.
 * Stops at the first refusal and hands back the items not yet added.
 */
export function addListValues(
  items: readonly ListItem[],
  values: readonly string[],
  options: ListOptions,
): { items: ListItem[]; error?: ListError; rest: string[] } {
  const out = [...items];
  for (let i = 0; i < values.length; i++) {
    const text = values[i]!.trim();
    const checked = checkItem(text, options);
    const rest = values.slice(i);
    if ('error' in checked) return { items: out, error: checked.error, rest };
    if (out.some((item) => String(item) === String(checked.value))) {
      if (options.noDupes) continue;
      if (options.uniqueItems) return { items: out, error: { code: 'duplicate', value: text }, rest };
    }
    if (options.maxItems !== undefined && out.length >= options.maxItems)
      return { items: out, error: { code: 'maxItems', limit: options.maxItems }, rest };
    out.push(checked.value);
  }
  return { items: out, rest: [] };
}

/** Typed text: a comma separates items, as the comma key does (product §5). */
export function addTypedItems(items: readonly ListItem[], typed: string, options: ListOptions) {
  const result = addListValues(items, typed.split(','), options);
  return { items: result.items, error: result.error, rest: result.rest.join(',').trim() };
}

/** Backspace on an empty input removes the last item (product §5). */
export function removeLast(items: readonly ListItem[]): ListItem[] {
  return items.slice(0, -1);
}

/** CSV lines as items: each line trimmed, blank lines skipped (product §5). */
export function csvLines(text: string): string[] {
  return text
    .split(/\r\n|\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export type CsvFileError = 'notCsv' | 'tooLarge';

/** The CSV upload rules of product §5: a CSV file, smaller than 80 MB. */
export function checkCsvFile(file: { name: string; type: string; size: number }): CsvFileError | null {
  const csv = /\.csv$/i.test(file.name) || file.type === 'text/csv';
  if (!csv) return 'notCsv';
  if (file.size >= MAX_FILE_SIZE_BYTES) return 'tooLarge';
  return null;
}
