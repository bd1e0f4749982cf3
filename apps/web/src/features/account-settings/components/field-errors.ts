import { ApiError } from '../../../lib/http/errors';
import { failureMessage } from '../../../lib/http/results';

export type FieldErrors = Record<string, string>;

/**
 * product §8 Form errors: an error whose source names a field shows under it, the others in
 * a form-level message. Answers both.
 */
export function splitErrors(
  error: unknown,
  fields: readonly string[],
  verb: string,
  item: string,
): { fields: FieldErrors; form: string | null } {
  const byField: FieldErrors = {};
  const rest: string[] = [];
  if (error instanceof ApiError) {
    for (const entry of error.errors) {
      if (entry.source && fields.includes(entry.source) && entry.code !== 'UNAUTHORIZED') {
        byField[entry.source] ??= entry.message;
      } else rest.push(entry.message);
    }
    return { fields: byField, form: rest.length ? rest.join(' ') : null };
  }
  return { fields: byField, form: failureMessage(error, verb, item) };
}

/** zod issues of a shared schema, as field errors. */
export function zodErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}
