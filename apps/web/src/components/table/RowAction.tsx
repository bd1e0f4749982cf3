import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/** An icon button in a table row, named for screen readers and with a tooltip. */
export function RowAction({
  label,
  onClick,
  color,
  disabled,
  testId,
  children,
}: {
  label: string;
  onClick(): void;
  color?: string;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={color}
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
