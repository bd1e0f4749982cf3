import { Divider, Popover, type PopoverProps, ScrollArea, Text } from '@mantine/core';
import type { ReactElement, ReactNode } from 'react';

type Props = Pick<PopoverProps, 'opened' | 'onChange' | 'onDismiss'> & {
  target: ReactElement;
  title: string;
  testId: string;
  /** Below the list, outside its scrolling (a link to all of them). */
  footer?: ReactNode;
  children: ReactNode;
};

/**
 * A header widget's list (product §2 Header widgets: notifications, notices): a titled panel
 * under its icon at the right, whose list scrolls past 420 px.
 */
export function HeaderList({ target, title, testId, footer, children, ...closing }: Props) {
  return (
    <Popover
      {...closing}
      position="bottom-end"
      width={380}
      shadow="md"
      withinPortal
      // The target is the group or badge around the button: the button itself says it expands.
      withRoles={false}
    >
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown p={0} data-testid={testId}>
        <Text fw={600} px="md" py="sm">
          {title}
        </Text>
        <Divider />
        <ScrollArea.Autosize mah={420}>{children}</ScrollArea.Autosize>
        {footer && (
          <>
            <Divider />
            {footer}
          </>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
