import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActionStatusView } from '#src/lib/dialogs/ActionStatusDialog';
import type { FormDefinition, FormValues } from '#src/lib/forms/types';
import { useSchemaForm } from '#src/lib/forms/use-schema-form';
import type { Envelope } from '#src/lib/http/client';
import { useSession } from '#src/lib/session/session-context';
import { FieldControl } from './FieldControl';
import { FormErrorList } from './FormErrorList';

type Props = {
  definition: FormDefinition;
  /** The record's id when editing. */
  id?: string | undefined;
  formId: string;
  initialValues?: FormValues;
  /** Called as a checked form is sent. */
  onSend?(): void;
  onSuccess?(response: Envelope<unknown>): void;
  onCancel?(): void;
};

/** A form drawn from its definition (product §3 Form field definition, §4 Form submission). */
export function SchemaForm({ definition, id, formId, initialValues, onSend, onSuccess, onCancel }: Props) {
  const { t } = useTranslation('forms');
  const { t: tf } = useTranslation(definition.ns);
  const { can } = useSession();
  const { form, values, visible, status, formErrors, submit, inlineStatus } = useSchemaForm(definition, {
    id,
    formId,
    can,
    ...(initialValues ? { initialValues } : {}),
    ...(onSend ? { onSend } : {}),
    ...(onSuccess ? { onSuccess } : {}),
  });
  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid={`form-${definition.name}`}
      data-status={status}
    >
      <Stack>
        <FormErrorList errors={formErrors} />
        {visible.map((field, index) => (
          <FieldControl
            key={field.key}
            field={field}
            form={form}
            ns={definition.ns}
            autoFocus={index === 0}
            values={values}
          />
        ))}
        {definition.note && (
          <Text size="sm" c="dimmed" data-testid="form-note">
            {tf(definition.note)}
          </Text>
        )}
        <Group justify="flex-end">
          {definition.extraActions?.(values)}
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('action.cancel')}
            </Button>
          )}
          {/* A form that asks before it acts destroys something: its button says so. */}
          <Button type="submit" loading={status === 'waiting'} color={definition.confirm ? 'red' : undefined}>
            {definition.submitLabel ? tf(definition.submitLabel) : t('action.save')}
          </Button>
        </Group>
        {inlineStatus && (
          // A new run replaces the last one's status (keyed by its channel).
          <ActionStatusView key={inlineStatus.source.channel} {...inlineStatus} />
        )}
      </Stack>
    </form>
  );
}
