import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CancelImpersonationButton } from '#src/features/impersonation/components/CancelImpersonationButton';
import { useSession } from '#src/lib/session/session-context';

/**
 * 'Currently impersonating user {email}, {company name or Company} #{company id}' (product §6),
 * on top of the header while impersonating, with the way back.
 */
export function ImpersonationBanner({ height }: { height: number }) {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  if (!user.isImpersonating) return null;
  return (
    <Group
      h={height}
      bg="orange.6"
      c="white"
      px="md"
      gap="sm"
      justify="center"
      wrap="nowrap"
      role="status"
      data-testid="impersonation-banner"
    >
      <Text size="sm" fw={600} truncate data-testid="impersonation-banner-text">
        {t('impersonation.banner', {
          email: user.email,
          company: user.company_name || t('impersonation.company'),
          id: user.company_id,
        })}
      </Text>
      <CancelImpersonationButton />
    </Group>
  );
}
