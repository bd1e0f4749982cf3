import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCopy, IconDownload, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Recovery codes, shown once: copy, download, and a clear word that they will not come back. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone?: () => void }) {
  const { t } = useTranslation('mfa');
  const download = () => {
    const blob = new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'fleetgate-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack data-testid="recovery-codes">
      <Alert color="yellow" icon={<IconKey size={18} />} title={t('recovery.title')}>
        {t('recovery.onlyOnce')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4}>
        {codes.map((code) => (
          <Text key={code} ff="monospace" fz="sm" data-testid="recovery-code">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" leftSection={<IconCopy size={16} />} onClick={copy}>
              {copied ? t('recovery.copied') : t('recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          {t('recovery.download')}
        </Button>
        {onDone && <Button onClick={onDone}>{t('recovery.saved')}</Button>}
      </Group>
    </Stack>
  );
}
