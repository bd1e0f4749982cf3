import type { NoticeType } from '@fleetgate/shared/schemas/notices';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { RichText } from '#src/components/forms/RichText';
import { windowsStore } from '#src/lib/dialogs/windows-store';
import { NoticeTypeBadge } from './NoticeTypeBadge';

/** How a notice will read in the header list (product §5 rich text). */
export function NoticePreview({ type, message }: { type: NoticeType; message: string }) {
  const { t } = useTranslation('notices');
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('preview.intro')}
      </Text>
      <Paper withBorder p="sm">
        <Stack gap={6}>
          <NoticeTypeBadge type={type} />
          <RichText html={message} fz="sm" data-testid="notice-preview" />
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Opens the preview in a window above the form. */
export function NoticePreviewButton({ type, message }: { type: NoticeType; message: string }) {
  const { t } = useTranslation('notices');
  return (
    <Button
      variant="subtle"
      leftSection={<IconEye size={16} />}
      disabled={!message.trim()}
      onClick={() =>
        windowsStore.open(
          NoticePreview,
          { type, message },
          { id: 'notice-preview', title: i18next.t('notices:preview.title'), size: 'sm' },
        )
      }
    >
      {t('preview.open')}
    </Button>
  );
}
