import { Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The plain card of the account app's single-purpose pages (confirm e-mail, vendor callback). */
export function CenteredCard({
  title,
  children,
  testId,
}: {
  title: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={480} data-testid={testId}>
        <Stack>
          <Title order={2}>{title}</Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
