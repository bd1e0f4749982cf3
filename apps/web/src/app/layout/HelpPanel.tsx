import { Drawer, Text, Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import Markdown from 'react-markdown';
import { helpFor } from '../../features/help/help-content';
import { useHelp } from './help-context';

/** The help side panel (product §2 Layout): the route's help text, Markdown rendered without raw HTML. */
export function HelpPanel({ onClose }: { onClose?(routeName: string): void }) {
  const { t } = useTranslation('shell');
  const { t: tr } = useTranslation('routes');
  const help = useHelp();
  const text = help.routeName ? helpFor(help.routeName) : undefined;
  return (
    <Drawer
      opened={help.routeName !== null}
      onClose={() => {
        if (help.routeName) onClose?.(help.routeName);
        help.close();
      }}
      position="right"
      size="md"
      title={help.routeName ? `${t('help.title')}: ${tr(help.routeName)}` : ''}
      closeButtonProps={{ 'aria-label': t('help.close') }}
      data-testid="help-panel"
    >
      {text ? (
        <Typography>
          <Markdown skipHtml>{text}</Markdown>
        </Typography>
      ) : (
        <Text c="dimmed">{t('help.none')}</Text>
      )}
    </Drawer>
  );
}
