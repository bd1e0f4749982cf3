import { TIME_FORMAT } from '@fleetgate/shared/constants';
import type { Notice } from '@fleetgate/shared/schemas/notices';
import { Divider, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { Fragment, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { OverlayProps } from '#src/components/overlay/Deferred';
import { NoticeTypeBadge } from './NoticeTypeBadge';

// The HTML sanitiser behind RichText comes when the list is opened, not with every screen.
const RichText = lazy(() => import('#src/components/forms/RichText').then((m) => ({ default: m.RichText })));

/** The list of the global notices (NoticesIndicator), loaded with its first use. */
export function NoticesPopover({ opened, onChange, target, notices }: OverlayProps & { notices: Notice[] }) {
  const { t } = useTranslation('notices');
  return (
    <Popover
      opened={opened}
      onDismiss={() => onChange(false)}
      position="bottom-end"
      width={380}
      shadow="md"
      withinPortal
      // The target is the group around the button: the button itself says it expands.
      withRoles={false}
    >
      <Popover.Target>{target}</Popover.Target>
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
