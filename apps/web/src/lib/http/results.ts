import { ApiError, NetworkError } from './errors';

/**
 * The generic result messages of spec §8: '{Item} {verb past} successfully' on success;
 * on failure the first error message, else 'Failed to {verb} {item} ({statusText or status})',
 * 'Server error' when there was no request at all.
 */
export function successMessage(item: string, pastVerb: string): string {
  const subject = item.charAt(0).toUpperCase() + item.slice(1);
  return `${subject} ${pastVerb} successfully`;
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
