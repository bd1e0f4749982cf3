import type { Permission } from '@fleetgate/shared/permissions';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ListOptions } from './list-input';

/** Field types of spec §3 Form field definition. */
export type FieldType =
  | 'text'
  | 'email'
  | 'password'
  | 'textarea'
  | 'number'
  | 'color'
  | 'checkbox'
  | 'radio'
  | 'select'
  | 'date'
  | 'datetime'
  | 'file'
  | 'list';

export type FieldOption = { value: string; label: string };

export type FormValues = Record<string, unknown>;

/** When a field shows: another field's value equals one of `value` (or is truthy without one). */
export type FieldDependency =
  | { key: string; value?: unknown; not?: boolean }
  | ((values: FormValues) => boolean);

/**
 * One field (spec §3 Form field definition). Texts (label, hint, subtext, placeholder,
 * addon, option labels) are i18n keys of the form's namespace.
 */
export type FieldDef = {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
  min?: number;
  max?: number;
  step?: number;
  /** A regular expression the whole value must match (checked by the browser too). */
  pattern?: string;
  /** spec §5 masks: # * S F A a. */
  mask?: string;
  placeholder?: string;
  options?: readonly FieldOption[];
  hint?: string;
  subtext?: string;
  /** Text shown at the right end of the input (a unit, a domain). */
  addon?: string;
  /** Shown only when this holds; a hidden field is cleared (spec §4 Modal). */
  depends?: FieldDependency;
  /** Shown only to holders of the permission (spec §5). */
  permission?: Permission;
  disabled?: boolean;
  /** A 'Generate' button that fills a 16-character password (spec §9). */
  generate?: boolean;
  /** A link beside the field: label key and URL or console path. */
  href?: { label: string; to: string };
  /** List input options (spec §3). */
  list?: ListOptions;
  /** File input: accepted types (`.json,application/json`), maximum bytes, spaces allowed. */
  accept?: string;
  maxSize?: number;
  allowSpaces?: boolean;
};

export type SubmitContext = { id: string | undefined };

/** How a record for `:id` is loaded into the form (full-page form route, edit windows). */
export type FormLoad = {
  path(id: string): string;
  toValues(data: unknown): FormValues;
};

/**
 * A form definition: where it goes, its fields, and the shared zod schema that checks
 * them (CONVENTIONS example 5: one contract for the server and the form).
 */
export type FormDefinition = {
  name: string;
  /** The i18n namespace of every text of the definition. */
  ns: string;
  /** Title keys for a new record and for an existing one. */
  title: { create: string; edit?: string };
  /** Path under /api; may depend on the record id. */
  endpoint: string | ((context: SubmitContext) => string);
  /** POST unless said (spec §7 Forms and actions). */
  method?:
    | 'POST'
    | 'PUT'
    | 'PATCH'
    | 'DELETE'
    | ((context: SubmitContext) => 'POST' | 'PUT' | 'PATCH' | 'DELETE');
  schema: z.ZodType;
  fields: readonly FieldDef[];
  defaults?: FormValues;
  load?: FormLoad;
  /** Who may use the form at all. */
  permission?: Permission;
  /** Multipart upload (spec §7: arrays indexed, dates ISO, null empty). */
  upload?: boolean;
  /** Queries reloaded after success (spec §4: table or data reloads). */
  invalidate?: readonly QueryKey[];
  /** The generic success text when the response has no message: item and past verbs (i18n keys). */
  result?: { item: string; created: string; updated?: string };
  /** No success toast (spec §8 hideMsg). */
  hideMsg?: boolean;
  /** The window stays open after success (spec §4 leaveOpen). */
  leaveOpen?: boolean;
  /** The full-page form stays after success instead of going back (spec §2). */
  skipNavigation?: boolean;
  useToast?: boolean;
  modalError?: boolean;
  /** A list field whose items bulk errors with a bare position belong to. */
  bulkKey?: string;
  /** Submit button key; 'Save' by default. */
  submitLabel?: string;
  /** The body sent, from the checked values. */
  toBody?(values: FormValues, context: SubmitContext): unknown;
  /** Buttons beside Cancel and Save that read the current values (a preview). */
  extraActions?(values: FormValues): ReactNode;
  /** Where the full-page form goes after success when there is no page to go back to. */
  fallbackPath?: string;
};
