import { TIME_FORMAT } from '@fleetgate/shared/constants';
import {
  ActionIcon,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconSpeakerphone } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { RichText } from '../../../components/forms/RichText';
import { useUserStorage } from '../../../lib/storage/user-storage';
import { useActiveNotices } from '../api/notices';
import { isImportant, NOTICES_SEEN_KEY, sortNewestFirst } from '../utils/important';
import { NoticeTypeBadge } from './NoticeTypeBadge';

/**
 * Header widget 2 of spec §2: the global notices icon with its 'Important' marker
 * (spec §4 Global notice alert), reloaded on every route change.
 */
export function NoticesIndicator() {
  const { t } = useTranslation('notices');
  const location = useLocation();
  const query = useActiveNotices();
  const [lastSeen, setLastSeen] = useUserStorage<string | null>(NOTICES_SEEN_KEY, null);
  const [opened, setOpened] = useState(false);
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads on each route change (spec §4).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void query.refetch();
  }, [location.pathname]);

  // spec §8: a failed load empties the notices and hides the alert.
  const notices = query.isError ? [] : sortNewestFirst(query.data ?? []);
  const important = isImportant(notices, lastSeen);

  const toggle = (next: boolean) => {
    setOpened(next);
    // spec §4: opening or closing the list stores the current UTC time and clears the alert.
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
    >
      <Popover.Target>
        <Indicator
          label={t('important')}
          size={16}
          color="red"
          offset={4}
          disabled={!important}
          data-testid="notices-important"
          data-important={important || undefined}
        >
          <Tooltip label={t('title')} disabled={opened}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t('title')}
              onClick={() => toggle(!opened)}
              data-testid="notices-indicator"
            >
              <IconSpeakerphone size={20} />
            </ActionIcon>
          </Tooltip>
        </Indicator>
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
                  <RichText html={notice.message} fz="sm" data-testid="notice-message" />
                </Stack>
              </Fragment>
            ))
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
