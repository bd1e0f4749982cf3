import type { Permission } from '@fleetgate/shared/permissions';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useWindowsStore } from '../dialogs/WindowsProvider';
import type { Envelope } from '../http/client';
import { mapSubmitError } from './errors';
import { type SubmitStatus, sendForm } from './submit';
import { trimValues } from './text';
import type { FieldDef, FormDefinition, FormValues } from './types';
import { clearedValue, isFieldVisible } from './visibility';

type Options = {
  id: string | undefined;
  /** The window or page id of the form; modals opened from it derive theirs from it. */
  formId: string;
  initialValues?: FormValues;
  can(permission: Permission): boolean;
  onSuccess?(response: Envelope<unknown>): void;
};

/**
 * The forms engine behind SchemaForm: react-hook-form checked by the definition's shared
 * zod schema, text trimmed (spec §5), hidden fields cleared, and the submission states
 * of spec §4 (idle → waiting → success or error; submits while waiting are ignored).
 */
export function useSchemaForm(definition: FormDefinition, options: Options) {
  const { t } = useTranslation('forms');
  const { t: tf } = useTranslation(definition.ns);
  const queryClient = useQueryClient();
  const windows = useWindowsStore();
  const [status, setStatus] = useState<SubmitStatus>('idle');
  const [formErrors, setFormErrors] = useState<string[]>([]);
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
    // spec §5: a field error clears when the value changes (it is not re-checked while typing).
    reValidateMode: 'onSubmit',
  });

  const values = form.watch();
  const visible: FieldDef[] = definition.fields.filter((field) => isFieldVisible(field, values, options.can));
  const visibleKeys = visible.map((field) => field.key);
  const hiddenKey = definition.fields
    .filter((field) => !visibleKeys.includes(field.key))
    .map((field) => field.key)
    .join(',');

  // spec §4 Modal: a field hidden by a dependency (or a permission) is cleared.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the hidden set changes.
  useEffect(() => {
    for (const field of definition.fields) {
      if (visibleKeys.includes(field.key)) continue;
      const empty = clearedValue(field);
      if (form.getValues(field.key) !== empty) form.setValue(field.key, empty);
      form.clearErrors(field.key);
    }
  }, [hiddenKey]);

  const context = { id: options.id };

  const submit = form.handleSubmit(async (checked) => {
    if (waiting.current) return;
    waiting.current = true;
    setStatus('waiting');
    setFormErrors([]);
    try {
      const response = await sendForm(definition, checked, context);
      setStatus('success');
      if (!definition.hideMsg) {
        const result = definition.result;
        const verb = result && (options.id ? (result.updated ?? result.created) : result.created);
        const message =
          response.message ??
          (result && verb
            ? t('result.success', { item: tf(result.item), verb: tf(verb) })
            : t('result.saved'));
        notifications.show({ color: 'green', message });
      }
      for (const key of definition.invalidate ?? []) void queryClient.invalidateQueries({ queryKey: key });
      const channel = response.meta?.channel;
      // spec §4: a response with a channel opens 'Action status'.
      if (typeof channel === 'string' && channel) {
        windows.openNamed(
          'actionStatus',
          { channel, ...(response.message ? { message: response.message } : {}) },
          { id: `${options.formId}:status` },
        );
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

  return { form, values, visible, status, formErrors, submit };
}
