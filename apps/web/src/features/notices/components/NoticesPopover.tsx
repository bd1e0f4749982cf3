import { TIME_FORMAT } from '@fleetgate/shared/constants';
import type { Notice } from '@fleetgate/shared/schemas/notices';
import { Divider, Group, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { Fragment, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { OverlayProps } from '#src/components/overlay/Deferred';
import { HeaderList } from '#src/components/overlay/HeaderList';
import { NoticeTypeBadge } from './NoticeTypeBadge';

// The HTML sanitiser behind RichText comes when the list is opened, not with every screen.
const RichText = lazy(() => import('#src/components/forms/RichText').then((m) => ({ default: m.RichText })));

/** The list of the global notices (NoticesIndicator), loaded with its first use. */
export function NoticesPopover({ opened, onChange, target, notices }: OverlayProps & { notices: Notice[] }) {
  const { t } = useTranslation('notices');
  return (
    <HeaderList
      opened={opened}
      onDismiss={() => onChange(false)}
      target={target}
      title={t('title')}
      testId="notices-list"
    >
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
    </HeaderList>
  );
}
