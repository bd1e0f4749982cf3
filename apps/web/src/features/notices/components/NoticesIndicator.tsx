import { TIME_FORMAT } from '@fleetgate/shared/constants';
import { ActionIcon, Badge, Divider, Group, Popover, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconSpeakerphone } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Fragment, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useUserStorage } from '#src/lib/storage/user-storage';
import { useActiveNotices } from '../api/notices';
import { isImportant, NOTICES_SEEN_KEY, sortNewestFirst } from '../utils/important';
import { NoticeTypeBadge } from './NoticeTypeBadge';

// The HTML sanitiser behind RichText comes when the list is opened, not with every screen.
const RichText = lazy(() => import('#src/components/forms/RichText').then((m) => ({ default: m.RichText })));

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
    <Popover
      opened={opened}
      onDismiss={() => toggle(false)}
      position="bottom-end"
      width={380}
      shadow="md"
      withinPortal
      // The target is the group around the button: the button itself says it expands.
      withRoles={false}
    >
      <Popover.Target>
        {/* The marker sits beside the icon, inside the header's height: it never covers the avatar
            next to it nor is cut by the header's top edge, at any width. */}
        <Group gap={4} wrap="nowrap" data-testid="notices-important" data-important={important || undefined}>
          <Tooltip label={t('title')} disabled={opened}>
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
          </Tooltip>
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
      </Popover.Target>
      <Popover.Dropdown p={0} data-testid="notices-list">
        <Text fw={600} px="md" py="sm">
          {t('title')}
        </Text>
        <Divider />
        <ScrollArea.Autosize mah={420}>
          {notices.length === 0 ? (
            <Text c="dimmed" size="sm" px="md" py="lg" ta="center">
              {t('empty')}
            </Text>
          ) : (
            notices.map((notice, index) => (
              <Fragment key={notice.id}>
                {index > 0 && <Divider />}
                <Stack gap={4} px="md" py="sm" data-testid="notice-item">
                  <Group justify="space-between" gap="xs">
                    <NoticeTypeBadge type={notice.type} />
                    <Text size="xs" c="dimmed" data-testid="notice-time">
                      {notice.enabled_at ? dayjs(notice.enabled_at).format(TIME_FORMAT) : ''}
                    </Text>
                  </Group>
                  <Suspense fallback={null}>
                    <RichText html={notice.message} fz="sm" data-testid="notice-message" />
                  </Suspense>
                </Stack>
              </Fragment>
            ))
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
