import { Button, Group, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormErrorList } from '#src/components/forms/FormErrorList';
import type { SubmitStatus } from '#src/lib/forms/submit';

type Props = {
  name: string;
  status: SubmitStatus;
  errors: readonly string[];
  onSubmit(event: FormEvent): void;
  onCancel?(): void;
  submitLabel?: string;
  children: ReactNode;
};

/**
 * The frame of a form whose fields need live options (roles per company): the same
 * layout as SchemaForm (form-level errors, fields, Cancel and the submit button), driven
 * by the forms engine's useSchemaForm.
 */
export function FormShell({ name, status, errors, onSubmit, onCancel, submitLabel, children }: Props) {
  const { t } = useTranslation('forms');
  return (
    <form onSubmit={onSubmit} noValidate data-testid={`form-${name}`} data-status={status}>
      <Stack>
        <FormErrorList errors={errors} />
        {children}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('action.cancel')}
            </Button>
          )}
          <Button type="submit" loading={status === 'waiting'}>
            {submitLabel ?? t('action.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
