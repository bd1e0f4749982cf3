import type { TooltipProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import {
  type ComponentType,
  cloneElement,
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type Ref,
  useRef,
  useState,
} from 'react';
import { chain } from './events';
import { later, useLater } from './later';

type ChildProps = {
  ref?: Ref<HTMLElement>;
  onPointerEnter?(event: unknown): void;
  onPointerLeave?(event: unknown): void;
  onFocus?(event: FocusEvent<HTMLElement>): void;
  onBlur?(event: FocusEvent<HTMLElement>): void;
  onKeyDown?(event: KeyboardEvent<HTMLElement>): void;
};

export type TipProps = Omit<TooltipProps, 'children' | 'target' | 'opened' | 'defaultOpened'> & {
  children: ReactElement<ChildProps>;
};

const tooltip = later(() =>
  import('./mantine-tooltip').then((m) => m.Tooltip as ComponentType<TooltipProps>),
);

function focusVisible(element: HTMLElement) {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

/**
 * Mantine's Tooltip, whose code (with floating-ui's, about 20 KB gzip) loads when the first
 * tooltip is hovered or focused instead of with the landing. The child is drawn as it is and
 * never replaced: the tooltip joins it beside, pointed at it (Mantine's `target`), so a
 * button keeps its focus and place. It shows on hover, as Mantine's does, and on keyboard
 * focus; Escape hides it (WCAG 1.4.13).
 */
export function Tip({ children, ...props }: TipProps) {
  const element = useRef<HTMLElement | null>(null);
  const hovered = useRef(false);
  const [Tooltip, want] = useLater(tooltip);
  const [focused, setFocused] = useState(false);
  const own = children.props;
  const ref = useMergedRef(element, own.ref);
  const child = cloneElement(children, {
    ref,
    onPointerEnter: chain(own.onPointerEnter, () => {
      hovered.current = true;
      want();
    }),
    onPointerLeave: chain(own.onPointerLeave, () => {
      hovered.current = false;
    }),
    onFocus: chain(own.onFocus, (event: FocusEvent<HTMLElement>) => {
      if (focusVisible(event.currentTarget)) setFocused(true);
      want();
    }),
    onBlur: chain(own.onBlur, () => setFocused(false)),
    onKeyDown: chain(own.onKeyDown, (event: KeyboardEvent<HTMLElement>) => {
      if (event.key === 'Escape') setFocused(false);
    }),
  });
  return (
    <>
      {child}
      {Tooltip && (
        // Shown at once when the code came while the pointer was already there.
        <Tooltip {...props} target={element} defaultOpened={hovered.current} opened={focused || undefined} />
      )}
    </>
  );
}
