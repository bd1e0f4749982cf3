import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import { Anchor, Badge, Box, Group, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { buyLinkFor } from '../utils/buy-link';

/** The label of a notification kind; a kind this console does not know shows as sent. */
export function useTypeLabel() {
  const { t } = useTranslation('notifications');
  return (type: string) => t(`type.${type}`, { defaultValue: type });
}

/**
 * One notification (product §3: time, type, summary), marked while unseen (product §4), with the
 * 'Get more resources' link on creditAmountTooLow (product §2 Header widget 1). The summary
 * is plain text, rendered escaped.
 */
export function NotificationItem({ notification }: { notification: WebNotification }) {
  const { t } = useTranslation('notifications');
  const typeLabel = useTypeLabel();
  const { brand, user } = useSession();
  const buyLink = buyLinkFor(notification, brand, user);
  const unseen = notification.seen_at === null;
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      data-testid="notification-item"
      data-unseen={unseen || undefined}
    >
      <Box
        mt={6}
        w={8}
        h={8}
        style={{ flexShrink: 0, borderRadius: '50%' }}
        bg={unseen ? 'blue' : 'transparent'}
        aria-label={unseen ? t('unseen') : undefined}
        role={unseen ? 'img' : undefined}
      />
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Badge
            size="xs"
            variant="light"
            color={notification.type === 'creditAmountTooLow' ? 'orange' : 'blue'}
          >
            {typeLabel(notification.type)}
          </Badge>
          <Text size="xs" c="dimmed" data-testid="notification-time">
            {formatTime(notification.created_at)}
          </Text>
        </Group>
        <Text
          size="sm"
          fw={unseen ? 600 : 400}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="notification-summary"
        >
          {notification.summary}
        </Text>
        {buyLink && (
          <Anchor
            href={buyLink}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            data-testid="notification-buy-link"
          >
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              {t('getMoreResources')}
              <IconExternalLink size={14} aria-hidden />
            </span>
          </Anchor>
        )}
      </Stack>
    </Group>
  );
}
