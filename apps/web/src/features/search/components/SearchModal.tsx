import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import { pathOf } from '@fleetgate/shared/routes';
import { Checkbox, Divider, Group, Kbd, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '#src/lib/http/errors';
import { useSession } from '#src/lib/session/session-context';
import { useSearchSelection } from '../hooks/useSearchSelection';
import { availableEndpoints } from '../registry';
import { searchEndpoint } from '../search-api';
import { ResultGroup } from './ResultGroup';

function errorText(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

/**
 * The global search of product §2: one text, checkboxes per endpoint (kept locally), results
 * grouped per endpoint after a 500 ms pause in typing (product §9).
 */
export function SearchModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('search');
  const { can } = useSession();
  const navigate = useNavigate();
  const available = availableEndpoints(can);
  const [selected, setSelected] = useSearchSelection(available);
  const [text, setText] = useState('');
  const [query] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const endpoints = available.filter((endpoint) => selected.includes(endpoint.id));

  const results = useQueries({
    queries: endpoints.map((endpoint) => ({
      queryKey: ['search', endpoint.id, query],
      queryFn: () => searchEndpoint(endpoint, query),
      enabled: query !== '',
      staleTime: 30_000,
      retry: false,
    })),
  });

  const go = (path: string) => {
    onClose();
    navigate(path);
  };

  let message: string | null = null;
  if (endpoints.length === 0) message = t('noCriteria');
  else if (query === '') message = t('typeToSearch');
  else if (results.every((r) => r.isSuccess && r.data.total === 0)) message = t('noResults');

  return (
    <Modal opened onClose={onClose} title={t('title')} size="lg" yOffset="8vh" data-testid="search-modal">
      <Stack gap="sm">
        <TextInput
          // The window's focus trap focuses the element so marked on opening (its close button
          // otherwise): what the user types after '/' goes into the search.
          data-autofocus
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          placeholder={t('placeholder')}
          aria-label={t('placeholder')}
          leftSection={<IconSearch size={16} />}
          rightSection={<Kbd size="xs">Esc</Kbd>}
          rightSectionWidth={48}
          data-testid="search-input"
        />
        <Checkbox.Group value={selected} onChange={setSelected} label={t('searchIn')}>
          <Group gap="md" mt={4}>
            {available.map((endpoint) => (
              <Checkbox key={endpoint.id} value={endpoint.id} label={t(endpoint.labelKey)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Divider />
        <ScrollArea.Autosize mah="55vh">
          {message ? (
            <Text c="dimmed" ta="center" py="lg" data-testid="search-message">
              {message}
            </Text>
          ) : (
            <Stack gap="md">
              {endpoints.map((endpoint, index) => {
                const result = results[index];
                if (result?.isSuccess && result.data.total === 0) return null;
                return (
                  <ResultGroup
                    key={endpoint.id}
                    endpoint={endpoint}
                    query={query}
                    page={result?.data}
                    loading={result?.isFetching ?? false}
                    error={errorText(result?.error)}
                    onOpenResult={onClose}
                    onViewTable={() => go(`${pathOf(endpoint.tableRoute)}?q=${encodeURIComponent(query)}`)}
                  />
                );
              })}
            </Stack>
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
