import { Drawer, Loader, Text, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useHelp } from '#src/components/page/help-context';
import { hasHelp, loadHelp } from '#src/features/help/help-content';

// The Markdown renderer and its parser weigh more than the whole shell: they come when a help text opens.
const Markdown = lazy(() => import('react-markdown'));

/** The help side panel (product §2 Layout): the route's help text, Markdown rendered without raw HTML. */
export function HelpPanel({ onClose }: { onClose?(routeName: string): void }) {
  const { t } = useTranslation('shell');
  const { t: tr } = useTranslation('routes');
  const help = useHelp();
  const routeName = help.routeName;
  const text = useQuery({
    queryKey: ['help', routeName],
    queryFn: () => loadHelp(routeName!),
    enabled: routeName !== null && hasHelp(routeName),
    staleTime: Number.POSITIVE_INFINITY,
  });
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
      {routeName && hasHelp(routeName) ? (
        <Typography>
          <Suspense fallback={<Loader size="sm" />}>
            {text.data ? <Markdown skipHtml>{text.data}</Markdown> : <Loader size="sm" />}
          </Suspense>
        </Typography>
      ) : (
        <Text c="dimmed">{t('help.none')}</Text>
      )}
    </Drawer>
  );
}
