import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SchemaForm } from '#src/components/forms/SchemaForm';
import type { FormBodyProps } from '#src/lib/forms/types';
import type { Envelope } from '#src/lib/http/client';
import type { TransferCodeJson } from '../api/resources';
import { CopyCode } from './CopyCode';

/** The code just made, to hand over: shown once, with a copy button, until the window is closed. */
function CreatedCode({ code, onDone }: { code: TransferCodeJson; onDone(): void }) {
  const { t } = useTranslation('resources');
  return (
    <Stack data-testid="created-code">
      <Alert color="green" icon={<IconCircleCheck size={18} />} title={t('code.createdTitle')}>
        {t('code.createdMessage', { amount: code.amount, type: code.credit_type_name })}
      </Alert>
      <Group gap="xs" wrap="nowrap" justify="center">
        <Code fz="lg" px="md" py="xs" data-testid="created-code-value" style={{ whiteSpace: 'nowrap' }}>
          {code.code}
        </Code>
        <CopyCode code={code.code} testId="created-code-copy" />
      </Group>
      <Text size="sm" c="dimmed">
        {t('code.createdHint')}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-autofocus data-testid="created-code-done">
          {t('code.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * newCode's body (product §3): the fields drawn by the forms engine; after the save, the
 * created code in place of the form, so that the user can copy it. The window (or the
 * full-page form) finishes when the user is done with it.
 */
export function NewCodeFormBody({ definition, id, formId, onSuccess, onCancel }: FormBodyProps) {
  const [created, setCreated] = useState<Envelope<TransferCodeJson> | null>(null);
  if (created) return <CreatedCode code={created.data} onDone={() => onSuccess?.(created)} />;
  const { body: _ownBody, ...fields } = definition;
  return (
    <SchemaForm
      definition={fields}
      id={id}
      formId={formId}
      onSuccess={(response) => setCreated(response as Envelope<TransferCodeJson>)}
      {...(onCancel ? { onCancel } : {})}
    />
  );
}
