import { Button, Code, Group, Stack } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** The 'JSON viewer' dialog of product §2: a record as indented JSON, copyable. */
export function JsonViewerDialog({ value }: { value: unknown; title?: string }) {
  const { t } = useTranslation('dialogs');
  const clipboard = useClipboard({ timeout: 1500 });
  const text = JSON.stringify(value, null, 2);
  return (
    <Stack>
      <Code block data-testid="json-viewer" style={{ maxHeight: '60vh', overflow: 'auto' }}>
        {text}
      </Code>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => clipboard.copy(text)}>
          {clipboard.copied ? t('json.copied') : t('json.copy')}
        </Button>
      </Group>
    </Stack>
  );
}
