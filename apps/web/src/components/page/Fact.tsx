import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled fact of a page header (a company's level, a remote entry's host): label above, value below. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}
