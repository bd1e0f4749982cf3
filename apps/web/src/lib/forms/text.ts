/**
 * Paste cut to maxlength (product §5): the pasted text replaces the selection and is
 * shortened so the field never exceeds its limit. Returns the new value and caret.
 */
export function pasteWithin(
  current: string,
  pasted: string,
  selectionStart: number,
  selectionEnd: number,
  maxlength: number | undefined,
): { value: string; caret: number } {
  const before = current.slice(0, selectionStart);
  const after = current.slice(selectionEnd);
  const room =
    maxlength === undefined ? pasted.length : Math.max(maxlength - before.length - after.length, 0);
  const inserted = pasted.slice(0, room);
  return { value: before + inserted + after, caret: before.length + inserted.length };
}

/** Field types whose text is trimmed before it is sent (product §5: text fields are trimmed). */
export const TRIMMED_TYPES: ReadonlySet<string> = new Set(['text', 'email', 'textarea', 'number']);

/** The values with the text of trimmed fields trimmed; other values untouched. */
export function trimValues<T extends Record<string, unknown>>(
  values: T,
  fields: readonly { key: string; type: string }[],
): T {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields) {
    const value = out[field.key];
    if (TRIMMED_TYPES.has(field.type) && typeof value === 'string') out[field.key] = value.trim();
  }
  return out as T;
}
