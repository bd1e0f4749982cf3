import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/** An icon button in a table row, named for screen readers and with a tooltip. */
export function RowAction({
  label,
  onClick,
  color,
  testId,
  children,
}: {
  label: string;
  onClick(): void;
  color?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick} data-testid={testId}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
