import type { FormDefinition } from './types';

/**
 * The forms reachable by name: the full-page route `/forms/:form_name/:id?` (spec §2)
 * and `openForm(name)`. Each loads with its feature, so the console's first page does
 * not carry every form.
 */
const FORMS: Record<string, () => Promise<FormDefinition>> = {
  notice: () => import('../../features/notices/forms/notice-form').then((m) => m.noticeForm),
};

export function isKnownForm(name: string): boolean {
  return Object.hasOwn(FORMS, name);
}

/** The definition of a named form, or null for a name nobody registered. */
export async function loadForm(name: string): Promise<FormDefinition | null> {
  const loader = Object.hasOwn(FORMS, name) ? FORMS[name] : undefined;
  return loader ? loader() : null;
}
