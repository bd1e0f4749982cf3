import type { Permission } from '@fleetgate/shared/permissions';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { channelOnlySource } from '../dialogs/ActionStatusDialog';
import type { ActionStatusSource } from '../dialogs/action-status-state';
import { confirm } from '../dialogs/confirm';
import { useWindowsStore } from '../dialogs/WindowsProvider';
import type { Envelope } from '../http/client';
import { successMessage, successToast } from '../http/results';
import { mapSubmitError } from './errors';
import { type SubmitStatus, sendForm } from './submit';
import { trimValues } from './text';
import type { FieldDef, FieldOption, FormDefinition, FormValues } from './types';
import { clearedValue, isFieldVisible } from './visibility';

/** The options a select or radio field offers for these values. */
export function optionsOf(field: FieldDef, values: FormValues): readonly FieldOption[] {
  return typeof field.options === 'function' ? field.options(values) : (field.options ?? []);
}

/** 'Action status' of a request that carried a channel (product §4), when the form shows it itself. */
export type InlineStatus = { source: ActionStatusSource; message?: string };

type Options = {
  id: string | undefined;
  /** The window or page id of the form; modals opened from it derive theirs from it. */
  formId: string;
  initialValues?: FormValues;
  can(permission: Permission): boolean;
  /** Called as a checked form is sent: a page showing the last answer clears it. */
  onSend?(): void;
  onSuccess?(response: Envelope<unknown>): void;
};

/**
 * The forms engine behind SchemaForm: react-hook-form checked by the definition's shared
 * zod schema, text trimmed (product §5), hidden fields cleared, and the submission states
 * of product §4 (idle → waiting → success or error; submits while waiting are ignored).
 */
export function useSchemaForm(definition: FormDefinition, options: Options) {
  const { t } = useTranslation('forms');
  const { t: tf } = useTranslation(definition.ns);
  const queryClient = useQueryClient();
  const windows = useWindowsStore();
  const [status, setStatus] = useState<SubmitStatus>('idle');
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [inlineStatus, setInlineStatus] = useState<InlineStatus | null>(null);
  const waiting = useRef(false);

  const resolver = useMemo<Resolver<FormValues>>(() => {
    const zod = zodResolver(
      definition.schema as Parameters<typeof zodResolver>[0],
    ) as unknown as Resolver<FormValues>;
    return (values, context, resolverOptions) =>
      zod(trimValues(values, definition.fields), context, resolverOptions);
  }, [definition]);

  const form = useForm<FormValues>({
    resolver,
    defaultValues: { ...definition.defaults, ...options.initialValues },
    mode: 'onSubmit',
    // product §5: a field error clears when the value changes (it is not re-checked while typing).
    reValidateMode: 'onSubmit',
  });

  const values = form.watch();
  const visible: FieldDef[] = definition.fields.filter((field) => isFieldVisible(field, values, options.can));
  const visibleKeys = visible.map((field) => field.key);
  const hiddenKey = definition.fields
    .filter((field) => !visibleKeys.includes(field.key))
    .map((field) => field.key)
    .join(',');

  // product §4 Modal: a field hidden by a dependency (or a permission) is cleared.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the hidden set changes.
  useEffect(() => {
    for (const field of definition.fields) {
      if (visibleKeys.includes(field.key)) continue;
      const empty = clearedValue(field);
      if (form.getValues(field.key) !== empty) form.setValue(field.key, empty);
      form.clearErrors(field.key);
    }
  }, [hiddenKey]);

  // A value its field no longer offers is cleared (the move target after another source).
  const offered = definition.fields
    .filter((field) => typeof field.options === 'function')
    .map(
      (field) =>
        `${field.key}=${optionsOf(field, values)
          .map((o) => o.value)
          .join('|')}`,
    )
    .join(';');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when what is offered changes.
  useEffect(() => {
    for (const field of definition.fields) {
      if (typeof field.options !== 'function') continue;
      const value = form.getValues(field.key);
      if (value === undefined || value === null || value === '') continue;
      if (!optionsOf(field, form.getValues()).some((o) => o.value === String(value)))
        form.setValue(field.key, undefined);
    }
  }, [offered]);

  const context = { id: options.id };

  const submit = form.handleSubmit(async (checked) => {
    if (waiting.current) return;
    waiting.current = true;
    try {
      // The form's texts may name what was sent ('Delete user {{email}}?').
      const words = { ...checked, id: options.id };
      // Destructive forms ask first, naming what will be lost (product §4).
      if (definition.confirm) {
        const yes = await confirm(
          {
            title: tf(definition.confirm.title, words),
            message: tf(definition.confirm.message, words),
            confirmLabel: tf(definition.confirm.confirmLabel, words),
            danger: true,
            id: `${options.formId}:confirm`,
          },
          windows,
        );
        if (!yes) return;
      }
      setStatus('waiting');
      setFormErrors([]);
      options.onSend?.();
      const response = await sendForm(definition, checked, context);
      setStatus('success');
      const channel = typeof response.meta?.channel === 'string' ? response.meta.channel : '';
      if (!definition.hideMsg) {
        const { item, created, updated } = definition.result;
        const verb = options.id ? (updated ?? created) : created;
        const own = successMessage(tf(item, words), tf(verb, words), (parts) => t('result.success', parts));
        // With 'Action status' the response's summary shows there, once: the toast says what was sent.
        const ownWords = Boolean(definition.result.own || channel);
        notifications.show({
          color: 'green',
          message: successToast(response.message, own, { own: ownWords }),
        });
      }
      for (const key of definition.invalidate ?? []) void queryClient.invalidateQueries({ queryKey: key });
      // product §4: a response with a channel opens 'Action status', which shows the response's
      // summary (once: the toast says what succeeded).
      if (channel) {
        const source = (definition.actionStatus ?? channelOnlySource)(channel);
        const shown = { source, ...(response.message ? { message: response.message } : {}) };
        if (definition.statusInline) setInlineStatus(shown);
        else windows.openNamed('actionStatus', shown, { id: `${options.formId}:status` });
      }
      options.onSuccess?.(response);
    } catch (error) {
      const mapped = mapSubmitError(
        error,
        {
          fieldKeys: visibleKeys,
          ...(definition.bulkKey ? { bulkKey: definition.bulkKey } : {}),
          ...(definition.useToast ? { useToast: true } : {}),
          ...(definition.modalError ? { modalError: true } : {}),
        },
        {
          sendFailed: t('error.sendFailed'),
          upload: (parts) => t('error.upload', parts),
        },
      );
      if (!mapped) {
        setStatus('idle');
        return;
      }
      setStatus('error');
      let first = true;
      for (const [path, message] of Object.entries(mapped.fields)) {
        form.setError(path, { type: 'server', message }, { shouldFocus: first });
        first = false;
      }
      setFormErrors(mapped.form);
      if (mapped.toast) notifications.show({ color: 'red', message: mapped.toast });
      if (mapped.modal)
        windows.openNamed('error', { messages: mapped.modal }, { id: `${options.formId}:error` });
    } finally {
      waiting.current = false;
    }
  });

  return { form, values, visible, status, formErrors, submit, inlineStatus };
}
