import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CancelImpersonationButton } from '#src/features/impersonation/components/CancelImpersonationButton';
import { useSession } from '#src/lib/session/session-context';

/** The banner's height: one line, or on a phone two, so that the e-mail and company show. */
export const bannerHeight = (phone: boolean) => (phone ? 48 : 32);

/**
 * 'Currently impersonating user {email}, {company name or Company} #{company id}' (product §6),
 * on top of the header while impersonating, with the way back. On a phone the text takes two
 * lines and the way back is its icon, named for screen readers, so the whole text fits.
 */
export function ImpersonationBanner({ phone }: { phone: boolean }) {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  if (!user.isImpersonating) return null;
  const text = t('impersonation.banner', {
    email: user.email,
    company: user.company_name || t('impersonation.company'),
    id: user.company_id,
  });
  return (
    <Group
      h={bannerHeight(phone)}
      bg="orange.6"
      c="white"
      px={phone ? 'sm' : 'md'}
      gap="sm"
      justify="center"
      wrap="nowrap"
      role="status"
      data-testid="impersonation-banner"
    >
      <Text
        size={phone ? 'xs' : 'sm'}
        fw={600}
        title={text}
        {...(phone ? { lineClamp: 2, style: { overflowWrap: 'anywhere' } } : { truncate: true })}
        data-testid="impersonation-banner-text"
      >
        {text}
      </Text>
      <CancelImpersonationButton iconOnly={phone} />
    </Group>
  );
}
