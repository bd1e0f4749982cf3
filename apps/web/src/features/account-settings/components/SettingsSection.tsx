import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled block of an account settings page. */
export function SettingsSection({
  title,
  description,
  children,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder p="lg" radius="md" data-testid={testId}>
      <Stack>
        <div>
          <Title order={3} size="h4">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
