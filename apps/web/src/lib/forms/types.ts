import type { Permission } from '@fleetgate/shared/permissions';
import type { QueryKey } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import type { z } from 'zod';
import type { ActionStatusSource } from '../dialogs/action-status-state';
import type { Envelope } from '../http/client';
import type { ListOptions } from './list-input';

/** Field types of product §3 Form field definition. */
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
 * One field (product §3 Form field definition). Texts (label, hint, subtext, placeholder,
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
  /** product §5 masks: # * S F A a. */
  mask?: string;
  placeholder?: string;
  /**
   * Select and radio options; a function when they follow other values (the move-company
   * targets follow the company to move). A value no longer offered is cleared.
   */
  options?: readonly FieldOption[] | ((values: FormValues) => readonly FieldOption[]);
  /** Option labels are data (company names), shown as they are rather than as i18n keys. */
  optionsAreData?: boolean;
  /** Shown in an open select that offers nothing (i18n key). */
  nothingFound?: string;
  hint?: string;
  subtext?: string;
  /** Text shown at the right end of the input (a unit, a domain). */
  addon?: string;
  /** Shown only when this holds; a hidden field is cleared (product §4 Modal). */
  depends?: FieldDependency;
  /** Shown only to holders of the permission (product §5). */
  permission?: Permission;
  disabled?: boolean;
  /** A 'Generate' button that fills a 16-character password (product §9). */
  generate?: boolean;
  /** A link beside the field: label key and URL or console path. */
  href?: { label: string; to: string };
  /** List input options (product §3). */
  list?: ListOptions;
  /** File input: accepted types (`.json,application/json`), maximum bytes, spaces allowed. */
  accept?: string;
  maxSize?: number;
  allowSpaces?: boolean;
};

export type SubmitContext = { id: string | undefined };

/** The question asked before a destructive form is sent (product §4: destructive actions ask first). */
export type FormConfirm = {
  /** i18n keys of the form's namespace, interpolated with the values and the record id. */
  title: string;
  message: string;
  confirmLabel: string;
};

/** What a form with its own body receives: where it is shown and what to do when done. */
export type FormBodyProps = {
  definition: FormDefinition;
  id: string | undefined;
  formId: string;
  onSuccess?(response: Envelope<unknown>): void;
  onCancel?(): void;
};

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
  /** POST unless said (product §7 Forms and actions). */
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
  /** Multipart upload (product §7: arrays indexed, dates ISO, null empty). */
  upload?: boolean;
  /** Queries reloaded after success (product §4: table or data reloads). */
  invalidate?: readonly QueryKey[];
  /**
   * The success toast of product §8, '{Item} {verb} successfully': item and past verbs (i18n
   * keys, interpolated with the values sent), shown when the response has no message of its
   * own, or always with `own` or when 'Action status' opens (the message shows there).
   */
  result: {
    item: string;
    created: string;
    updated?: string;
    /**
     * Toast these words even when the response has a message: the form shows the
     * response's summary itself (import results), or the server's words do not follow
     * product §8's pattern ('Test message sent to …').
     */
    own?: boolean;
  };
  /** No success toast (product §8 hideMsg). */
  hideMsg?: boolean;
  /** The window stays open after success (product §4 leaveOpen); `note` should say so in the window. */
  leaveOpen?: boolean;
  /** A line shown above the buttons (i18n key), e.g. why the window stays open. */
  note?: string;
  /**
   * 'Action status' (product §4) shows inside the form, below it, instead of in a window of its
   * own: for a form that stays open to show what its request did (the CLI output).
   */
  statusInline?: boolean;
  /**
   * Where 'Action status' takes the items of a response's channel from (the feature's
   * source); without one it shows the summary and the channel only.
   */
  actionStatus?(channel: string): ActionStatusSource;
  /** Asked before sending; the form is sent only on Confirm. */
  confirm?: FormConfirm;
  /** The full-page form stays after success instead of going back (product §2). */
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
  /**
   * A body of its own instead of the fields drawn from `fields` (options that load per
   * value, like newUser's roles per company), still on the engine's useSchemaForm. Shown
   * in a window and on the full-page route alike.
   */
  body?: ComponentType<FormBodyProps>;
};
