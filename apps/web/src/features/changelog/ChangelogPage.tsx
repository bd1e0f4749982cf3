import { APP_VERSION } from '@fleetgate/shared/constants';
import { Badge, Card, Code, List, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import notes from './CHANGELOG.md?raw';

/** Release notes headings and lists in the console's own typography. */
const components: Components = {
  h2: ({ children }) => (
    <Title order={3} mt="md">
      {children}
    </Title>
  ),
  h3: ({ children }) => (
    <Title order={4} mt="sm">
      {children}
    </Title>
  ),
  p: ({ children }) => <Text my="xs">{children}</Text>,
  ul: ({ children }) => <List spacing={4}>{children}</List>,
  li: ({ children }) => <List.Item>{children}</List.Item>,
  code: ({ children }) => <Code>{children}</Code>,
};

/**
 * The changelog route of product §2: the release notes of the current version (product §1:
 * 5.14.0). Markdown from the repository, rendered without raw HTML.
 */
export function ChangelogPage({ chain, params }: PageProps) {
  const { t } = useTranslation('changelog');
  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Badge size="lg" variant="light" data-testid="changelog-version">
          {t('version', { version: APP_VERSION })}
        </Badge>
      }
    >
      <Card withBorder padding="lg" data-testid="changelog-notes">
        <Markdown components={components} skipHtml>
          {notes}
        </Markdown>
      </Card>
    </PageFrame>
  );
}
