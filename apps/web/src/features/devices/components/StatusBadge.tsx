import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { statusLook } from '../utils/status';

/** A device's connection status with the spec's texts (product §4). */
export function StatusBadge({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation('devices');
  const look = statusLook(status);
  return (
    <Badge color={look.color} variant="light" data-testid="device-status" data-status={status ?? ''}>
      {t(`status.${look.key}`)}
    </Badge>
  );
}
