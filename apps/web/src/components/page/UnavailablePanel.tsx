import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * What a route without its screen yet shows inside its frame: a plain panel, so that the
 * page never looks broken or empty (a tab keeps its parent's header above it).
 */
export function UnavailablePanel({ tab }: { tab: boolean }) {
  const { t } = useTranslation('shell');
  return (
    <Paper withBorder p="xl" data-testid="screen-unavailable">
      <Text c="dimmed" ta="center">
        {tab ? t('unavailable.tab') : t('unavailable.page')}
      </Text>
    </Paper>
  );
}
