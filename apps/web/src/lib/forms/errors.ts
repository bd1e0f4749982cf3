import type { ErrorEntry } from '@fleetgate/shared/schemas/api';
import { ApiError, CancelledError, NetworkError } from '../http/errors';

export type MappedErrors = {
  /** Messages by field path (`name`, `data.2.serial`), shown under the field. */
  fields: Record<string, string>;
  /** Messages without a field, shown as the form-level list. */
  form: string[];
  /** The single error of a form with useToast (product §8). */
  toast?: string;
  /** Messages for the dialog titled 'Error' of a form with modalError (product §8). */
  modal?: string[];
};

export type ErrorMappingOptions = {
  /** The keys of the form's visible fields. */
  fieldKeys: readonly string[];
  /** A list field whose items bulk errors with a bare position (`source: "3"`) belong to. */
  bulkKey?: string;
  useToast?: boolean;
  modalError?: boolean;
};

export type ErrorTexts = {
  /** product §8: no object response. */
  sendFailed: string;
  /** product §8: '{message} ({file}, line {n} in {m})'. */
  upload(parts: { message: string; file: string; line: string; of: string }): string;
};

export const ENGLISH_ERROR_TEXTS: ErrorTexts = {
  sendFailed: 'Failed to send request. Try again later',
  upload: ({ message, file, line, of }) => `${message} (${file}, line ${line} in ${of})`,
};

/** `data[2].serial` and `data.2.serial` alike, as the dotted path react-hook-form uses. */
export function normalizeSource(source: string): string {
  return source.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/**
 * Upload errors name `{field}/{line}/{of}` as their source, e.g. `file/12/devices.csv`:
 * the form field, the line, and what the line is in (product §8).
 */
function uploadParts(source: string) {
  const [file = '', line = '', ...of] = source.split('/');
  return { file, line, of: of.join('/') };
}

/**
 * The form errors of product §8: a source matching a field shows under it, others in a
 * form-level list; UNAUTHORIZED is never a field error; bulk errors map to fields by
 * position; upload errors read '{message} ({file}, line {n} in {m})'; no object
 * response reads 'Failed to send request. Try again later'. A single error becomes a
 * toast with useToast, and the list a dialog titled 'Error' with modalError.
 * Returns null for a cancelled request (nothing to show).
 */
export function mapSubmitError(
  error: unknown,
  options: ErrorMappingOptions,
  texts: ErrorTexts = ENGLISH_ERROR_TEXTS,
): MappedErrors | null {
  if (error instanceof CancelledError) return null;
  const fields: Record<string, string> = {};
  const form: string[] = [];
  const known = new Set(options.fieldKeys);

  const entries: ErrorEntry[] =
    error instanceof ApiError && error.errors.length > 0
      ? error.errors
      : [{ code: 'REQUEST_FAILED', message: sendFailedMessage(error, texts) }];

  for (const entry of entries) {
    const source = entry.source;
    if (!source || entry.code === 'UNAUTHORIZED') {
      form.push(entry.message);
      continue;
    }
    if (source.includes('/')) {
      const parts = uploadParts(source);
      const message = texts.upload({ message: entry.message, ...parts });
      if (known.has(parts.file) && !(parts.file in fields)) fields[parts.file] = message;
      else form.push(message);
      continue;
    }
    let path = normalizeSource(source);
    // A bare position: the bulk list's item, or else the field at that place.
    if (/^\d+$/.test(path)) {
      const index = Number(path);
      path = options.bulkKey ? `${options.bulkKey}.${index}` : (options.fieldKeys[index] ?? path);
    }
    const root = path.split('.')[0]!;
    if (known.has(path) || known.has(root)) {
      fields[path] ??= entry.message;
    } else form.push(entry.message);
  }

  const mapped: MappedErrors = { fields, form };
  if (options.useToast && form.length === 1 && Object.keys(fields).length === 0) {
    mapped.toast = form[0]!;
    mapped.form = [];
  } else if (options.modalError && form.length > 0) {
    mapped.modal = form;
    mapped.form = [];
  }
  return mapped;
}

function sendFailedMessage(error: unknown, texts: ErrorTexts): string {
  // An ApiError without entries had no JSON object to read.
  if (error instanceof ApiError || error instanceof NetworkError) return texts.sendFailed;
  if (error instanceof Error && error.message) return error.message;
  return texts.sendFailed;
}

/**
 * The shared zod schema's verdict before sending (product §5), as field errors keyed like the
 * server's: the first message per top-level field. Forms outside the engine check with it,
 * then map the server's answer with mapSubmitError.
 */
export function zodFieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    fields[key] ??= issue.message;
  }
  return fields;
}
