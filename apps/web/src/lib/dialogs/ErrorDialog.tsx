import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWindow } from './window-context';

/** The dialog titled 'Error' of product §8 (forms with modalError). */
export function ErrorDialog({ messages }: { messages: string[] }) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  return (
    <Stack>
      {messages.length === 1 ? (
        <Text data-testid="error-dialog-message">{messages[0]}</Text>
      ) : (
        <List data-testid="error-dialog-message">
          {messages.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
      <Group justify="flex-end">
        <Button onClick={() => window?.close()} data-autofocus>
          {t('error.ok')}
        </Button>
      </Group>
    </Stack>
  );
}
