import { BUILD_TIMESTAMP, UI_TIMINGS } from '@fleetgate/shared/constants';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { local } from '#src/lib/storage/local-storage';

export const VERSION_TIMESTAMP_KEY = 'versionTimestamp';
/** The time this console was built (seconds), never older than the spec's build timestamp. */
const BUILT_AT = Math.max(BUILD_TIMESTAMP, Number(import.meta.env.VITE_BUILD_TIMESTAMP ?? 0));

type VersionMessage = { version: string; timestamp: number };

/**
 * The update prompt of product §4: /versionWorker.js reports version and timestamp; one newer
 * than both the stored timestamp and this build's prompts a reload after 1 s. 'Later'
 * hides it and resets the stored timestamp to 0.
 */
export function UpdatePrompt() {
  const { t } = useTranslation('shell');
  const [offer, setOffer] = useState<VersionMessage | null>(null);

  useEffect(() => {
    // product §7 General: the version worker runs outside localhost.
    if (window.location.hostname === 'localhost' || typeof Worker === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const worker = new Worker('/versionWorker.js');
    worker.onmessage = (event: MessageEvent<VersionMessage>) => {
      const { timestamp } = event.data;
      if (timestamp > local.get(VERSION_TIMESTAMP_KEY, 0) && timestamp > BUILT_AT) {
        clearTimeout(timer);
        timer = setTimeout(() => setOffer(event.data), UI_TIMINGS.updatePromptDelayMs);
      }
    };
    return () => {
      clearTimeout(timer);
      worker.terminate();
    };
  }, []);

  if (!offer) return null;
  return (
    <Paper
      withBorder
      shadow="md"
      p="md"
      pos="fixed"
      bottom={24}
      left={24}
      style={{ zIndex: 300 }}
      role="alertdialog"
      aria-label={t('update.title')}
    >
      <Text fw={600}>{t('update.title')}</Text>
      <Text size="sm" c="dimmed" mb="sm">
        {t('update.body', { version: offer.version })}
      </Text>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => {
            local.set(VERSION_TIMESTAMP_KEY, 0);
            setOffer(null);
          }}
        >
          {t('update.later')}
        </Button>
        <Button
          onClick={() => {
            local.set(VERSION_TIMESTAMP_KEY, offer.timestamp);
            window.location.reload();
          }}
        >
          {t('update.reload')}
        </Button>
      </Group>
    </Paper>
  );
}
