import type { NoticeType } from '@fleetgate/shared/schemas/notices';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<NoticeType, string> = {
  info: 'blue',
  warning: 'orange',
  maintenance: 'grape',
  update: 'teal',
};

export function NoticeTypeBadge({ type }: { type: NoticeType }) {
  const { t } = useTranslation('notices');
  return (
    <Badge color={COLORS[type]} variant="light" size="sm" data-testid="notice-type">
      {t(`type.${type}`)}
    </Badge>
  );
}
