import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The one row a table shows when it has none: a dimmed line across every column. */
export function EmptyRow({
  colSpan,
  testId,
  children,
}: {
  colSpan: number;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text c="dimmed" ta="center" py="md" data-testid={testId}>
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
