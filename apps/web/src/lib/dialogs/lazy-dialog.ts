import { Loader } from '@mantine/core';
import { type ComponentType, createElement, lazy, type ReactNode, Suspense } from 'react';
import type { DialogProps, RegisteredDialog } from './registry';
import type { WindowSize } from './windows-state';

function DialogLoading() {
  return createElement(
    'div',
    {
      style: { display: 'flex', justifyContent: 'center', padding: 'var(--mantine-spacing-xl) 0' },
      'data-testid': 'window-loading',
    },
    createElement(Loader, { size: 'sm' }),
  );
}

/**
 * A named dialog of a feature: its component loads when the dialog is first opened, from any
 * screen, while the window already shows its title. `title` may read the props (a device's name).
 */
export function dialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { title: ReactNode | ((props: P) => ReactNode); size?: WindowSize },
): RegisteredDialog {
  const Component = lazy(async () => ({ default: await load() }) as { default: ComponentType<DialogProps> });
  const { title } = options;
  return {
    render: (props) =>
      createElement(Suspense, { fallback: createElement(DialogLoading) }, createElement(Component, props)),
    title: (props) => (typeof title === 'function' ? title(props as P) : title),
    size: options.size ?? 'md',
    load,
  };
}
