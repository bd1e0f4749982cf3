import { ActionIcon, Badge, Group } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Deferred } from '#src/components/overlay/Deferred';
import { Tip } from '#src/components/overlay/Tip';
import { useUserStorage } from '#src/lib/storage/user-storage';
import { useActiveNotices } from '../api/notices';
import { isImportant, NOTICES_SEEN_KEY, sortNewestFirst } from '../utils/important';

/**
 * Header widget 2 of product §2: the global notices icon with its 'Important' marker
 * (product §4 Global notice alert), reloaded on every route change.
 */
export function NoticesIndicator() {
  const { t } = useTranslation('notices');
  const location = useLocation();
  const query = useActiveNotices();
  const [lastSeen, setLastSeen] = useUserStorage<string | null>(NOTICES_SEEN_KEY, null);
  const [opened, setOpened] = useState(false);
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads on each route change (product §4).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void query.refetch();
  }, [location.pathname]);

  // product §8: a failed load empties the notices and hides the alert.
  const notices = query.isError ? [] : sortNewestFirst(query.data ?? []);
  const important = isImportant(notices, lastSeen);

  const toggle = (next: boolean) => {
    setOpened(next);
    // product §4: opening or closing the list stores the current UTC time and clears the alert.
    setLastSeen(new Date().toISOString());
  };

  // Escape closes the list wherever the focus is (the icon keeps it while the list is open).
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape' && !event.defaultPrevented) toggle(false);
  });

  return (
    <Deferred
      load={() => import('./NoticesPopover').then((m) => m.NoticesPopover)}
      opened={opened}
      onChange={toggle}
      // The icon and the marker open it themselves.
      openOnClick={false}
      props={{ notices }}
      // The marker sits beside the icon, inside the header's height: it never covers the avatar
      // next to it nor is cut by the header's top edge, at any width.
      target={
        <Group gap={4} wrap="nowrap" data-testid="notices-important" data-important={important || undefined}>
          <Tip label={t('title')} disabled={opened}>
            <ActionIcon
              variant="subtle"
              color={important ? 'red' : 'gray'}
              size="lg"
              aria-label={t('title')}
              aria-expanded={opened}
              onClick={() => toggle(!opened)}
              data-testid="notices-indicator"
            >
              <IconSpeakerphone size={20} />
            </ActionIcon>
          </Tip>
          {important && (
            <Badge
              color="red"
              variant="filled"
              size="sm"
              tt="none"
              onClick={() => toggle(!opened)}
              style={{ cursor: 'pointer', flex: 'none' }}
              data-testid="notices-important-marker"
            >
              {t('important')}
            </Badge>
          )}
        </Group>
      }
    />
  );
}
