import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The top of a remote-connect screen: its title, what it reaches (`{testId}-target`), who is
 * signed in, and the screen's own button (disconnect, close, connect again).
 */
export function ConnectHeader({
  title,
  name,
  user,
  testId,
  children,
}: {
  title: string;
  name: string | undefined;
  user: CurrentUser | null;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Title order={1} size="h3">
          {title}
        </Title>
        {name && (
          <Text c="dimmed" truncate data-testid={`${testId}-target`}>
            {name}
          </Text>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {user && (
          <Text size="sm" visibleFrom="sm">
            {user.email}
          </Text>
        )}
        {children}
      </Group>
    </Group>
  );
}
