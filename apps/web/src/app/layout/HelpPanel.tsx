import { Drawer, Loader, Text, Typography } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useHelp } from '#src/components/page/help-context';
import { helpFor } from '#src/features/help/help-content';

// The Markdown renderer and its parser weigh more than the whole shell: they come when a help text opens.
const Markdown = lazy(() => import('react-markdown'));

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
          <Suspense fallback={<Loader size="sm" />}>
            <Markdown skipHtml>{text}</Markdown>
          </Suspense>
        </Typography>
      ) : (
        <Text c="dimmed">{t('help.none')}</Text>
      )}
    </Drawer>
  );
}
