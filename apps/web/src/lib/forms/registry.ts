import type { FormDefinition } from './types';

/** A named form of a feature's manifest: its definition loads when the form is first asked for. */
export type FormLoader = () => Promise<FormDefinition>;

let forms: Readonly<Record<string, FormLoader>> = {};

/**
 * The forms reachable by name: the full-page route `/forms/:form_name/:id?` (product §2) and
 * `openForm(name)`. app/ assembles them from the feature manifests before the console renders;
 * a name no manifest lists answers like any unknown path.
 */
export function provideForms(loaders: Readonly<Record<string, FormLoader>>): void {
  forms = loaders;
}

/** Every form name the manifests list (tests walk them). */
export function formNames(): string[] {
  return Object.keys(forms);
}

export function isKnownForm(name: string): boolean {
  return Object.hasOwn(forms, name);
}

/** The definition of a named form, or null for a name no manifest lists. */
export async function loadForm(name: string): Promise<FormDefinition | null> {
  const loader = Object.hasOwn(forms, name) ? forms[name] : undefined;
  return loader ? loader() : null;
}
