import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A bordered section of a page: its heading and a line on what it is for, an action beside them, then its content. */
export function Panel({
  title,
  text,
  action,
  testId,
  children,
}: {
  title: string;
  text: string;
  action?: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} style={{ flex: 1, minWidth: 220 }}>
            <Title order={3} size="h5">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {text}
            </Text>
          </Stack>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
