import { Badge, Button, Group, Loader, NavLink, Stack, Text } from '@mantine/core';
import { IconTable } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SearchEndpoint } from '../registry';
import { countLabel, type SearchPage } from '../search-api';

type Props = {
  endpoint: SearchEndpoint;
  query: string;
  page: SearchPage | undefined;
  loading: boolean;
  error: string | null;
  onViewTable(): void;
  onOpenResult(): void;
};

/** One endpoint's hits with their count ('10+' above 10) and 'View in table' (product §2 Global search). */
export function ResultGroup({ endpoint, query, page, loading, error, onViewTable, onOpenResult }: Props) {
  const { t } = useTranslation('search');
  const Icon = endpoint.icon;
  return (
    <Stack gap={4} data-testid={`search-group-${endpoint.id}`} data-total={page?.total}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Icon size={16} />
          <Text fw={600} size="sm">
            {t(endpoint.labelKey)}
          </Text>
          {page && (
            <Badge size="sm" variant="light" data-testid="search-group-count">
              {countLabel(page.total)}
            </Badge>
          )}
          {loading && <Loader size="xs" />}
        </Group>
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconTable size={14} />}
          onClick={onViewTable}
          aria-label={t('viewInTableOf', { group: t(endpoint.labelKey) })}
        >
          {t('viewInTable')}
        </Button>
      </Group>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      {page?.results.map((result) => (
        <NavLink
          key={result.id}
          component={Link}
          to={endpoint.href(result, query)}
          onClick={onOpenResult}
          label={endpoint.title(result)}
          description={endpoint.subtitle?.(result)}
          data-testid="search-result"
          py={4}
        />
      ))}
    </Stack>
  );
}
