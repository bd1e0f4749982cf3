import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/** An icon button with its tooltip and accessible name. */
export function RowAction({
  label,
  onClick,
  color,
  disabled,
  children,
}: {
  label: string;
  onClick(): void;
  color?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick} disabled={disabled}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
