import { UI_TIMINGS } from '@fleetgate/shared/constants';
import { Group, Image, Text, Transition } from '@mantine/core';
import { Link } from 'react-router';
import { BrandMark } from '#src/components/brand/BrandMark';
import { useSession } from '#src/lib/session/session-context';

/**
 * The logo links to /management/devices; when the menu collapses the wide logo fades out
 * in 0.1 s and the collapsed one in over 0.2 s (product §2 Navigation). The default brand
 * shows its collapsed-logo image, other brands their favicon.
 */
export function Logo({ wide }: { wide: boolean }) {
  const { brand } = useSession();
  const collapsedImage = brand.default ? '/favicon.svg' : brand.favicon;
  return (
    <Link
      to="/management/devices"
      aria-label={brand.app_name}
      style={{ textDecoration: 'none', color: 'inherit' }}
      data-testid="logo"
    >
      <Group h={40} gap={8} wrap="nowrap" px={wide ? 'md' : 0} justify={wide ? 'flex-start' : 'center'}>
        <Transition
          mounted={wide}
          transition="fade"
          duration={UI_TIMINGS.logoFadeInMs}
          exitDuration={UI_TIMINGS.logoFadeOutMs}
        >
          {(styles) => (
            <Group gap={8} wrap="nowrap" style={styles} data-testid="logo-wide">
              <BrandMark size={28} />
              <div>
                <Text fw={800} lh={1.1}>
                  {brand.app_name}
                </Text>
                {brand.logo_subtext && (
                  <Text size="xs" c="dimmed" lh={1.1}>
                    {brand.logo_subtext}
                  </Text>
                )}
              </div>
            </Group>
          )}
        </Transition>
        <Transition
          mounted={!wide}
          transition="fade"
          duration={UI_TIMINGS.logoFadeInMs}
          exitDuration={UI_TIMINGS.logoFadeOutMs}
        >
          {(styles) => (
            <Image src={collapsedImage} w={30} h={30} alt="" style={styles} data-testid="logo-collapsed" />
          )}
        </Transition>
      </Group>
    </Link>
  );
}
