import { Button, Group, Stack, Text } from '@mantine/core';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from './window-context';
import { type WindowsStore, windowsStore } from './windows-store';

export type ConfirmOptions = {
  title?: ReactNode;
  message: ReactNode;
  /** Defaults to 'Confirm' (product §9 default labels). */
  confirmLabel?: ReactNode;
  /** Defaults to 'Cancel'. */
  cancelLabel?: ReactNode;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
  id?: string;
};

function ConfirmDialog({
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onAnswer,
}: ConfirmOptions & { onAnswer(answer: boolean): void }) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  const answer = (value: boolean) => {
    onAnswer(value);
    window?.close();
  };
  return (
    <Stack>
      <Text data-testid="confirm-message">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => answer(false)}>
          {cancelLabel ?? t('confirm.cancel')}
        </Button>
        <Button color={danger ? 'red' : undefined} onClick={() => answer(true)} data-autofocus>
          {confirmLabel ?? t('confirm.confirm')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A confirmation window: resolves true on Confirm, false on Cancel, close or Escape.
 */
export function confirm(options: ConfirmOptions, store: WindowsStore = windowsStore): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const onAnswer = (value: boolean) => {
      answered = true;
      resolve(value);
    };
    store.open(
      ConfirmDialog,
      { ...options, onAnswer },
      {
        id: options.id ?? `confirm-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`,
        title: options.title ?? i18next.t('dialogs:confirm.title'),
        size: 'sm',
        onClose: () => {
          if (!answered) resolve(false);
        },
      },
    );
  });
}
