import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './cells.module.css';

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
    // Plain elements, as in the devices table (components/table/cells.module.css); inside
    // Mantine's Table the cell takes its spacing from the table's variables the same way.
    <tr>
      <td className={classes.cell} colSpan={colSpan}>
        <Text c="dimmed" ta="center" py="md" data-testid={testId}>
          {children}
        </Text>
      </td>
    </tr>
  );
}
