import { ActionIcon, Button, Kbd } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tip } from '#src/components/overlay/Tip';
import { useSession } from '#src/lib/session/session-context';
import { useSlashHotkey } from '../hooks/useSlashHotkey';
import { availableEndpoints } from '../registry';

// The search window and its result lists come when it is first opened.
const SearchModal = lazy(() => import('./SearchModal').then((m) => ({ default: m.SearchModal })));

/** The header's entry to the global search; '/' opens it too (product §2 Global search). */
export function SearchButton() {
  const { t } = useTranslation('search');
  const { can } = useSession();
  const [opened, setOpened] = useState(false);
  const usable = availableEndpoints(can).length > 0;
  useSlashHotkey(() => {
    if (usable) setOpened(true);
  });
  if (!usable) return null;
  return (
    <>
      <Button
        variant="default"
        size="xs"
        visibleFrom="sm"
        leftSection={<IconSearch size={14} />}
        rightSection={<Kbd size="xs">/</Kbd>}
        onClick={() => setOpened(true)}
        aria-label={t('open')}
        data-testid="search-button"
        styles={{ label: { fontWeight: 400 } }}
      >
        {t('title')}
      </Button>
      <Tip label={t('open')}>
        <ActionIcon
          variant="subtle"
          color="gray"
          hiddenFrom="sm"
          onClick={() => setOpened(true)}
          aria-label={t('open')}
        >
          <IconSearch size={20} />
        </ActionIcon>
      </Tip>
      {opened && (
        <Suspense fallback={null}>
          <SearchModal onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
