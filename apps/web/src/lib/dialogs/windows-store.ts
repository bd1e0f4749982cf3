import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { type ComponentType, createElement, type ReactNode } from 'react';
import { type DialogName, type DialogProps, registeredDialog } from './registry';
import {
  closeWindow,
  emptyWindows,
  focusWindow,
  minimizeWindow,
  moveWindow,
  openWindow,
  restoreWindow,
  toggleFullScreen,
  topmostWindow,
  type WindowSize,
  type WindowsState,
} from './windows-state';

export type OpenOptions = {
  /** Windows with the same id replace each other (product §2); defaults to the name or a fresh id. */
  id?: string;
  title?: ReactNode;
  size?: WindowSize;
  /** Runs once when the window goes away, however it goes. */
  onClose?: () => void;
};

/**
 * The window manager behind the dialog system: a store any code may drive (the HTTP
 * client's password prompt opens a window outside React), rendered by WindowsProvider.
 */
export function createWindowsStore() {
  let state: WindowsState = emptyWindows;
  let fresh = 0;
  const listeners = new Set<() => void>();
  const set = (next: WindowsState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };

  function openEntry(
    id: string,
    title: ReactNode,
    size: WindowSize,
    render: () => ReactNode,
    options: OpenOptions,
    name?: DialogName,
  ) {
    const result = openWindow(state, {
      id,
      title,
      size,
      render,
      ...(name ? { name } : {}),
      ...(options.onClose ? { onClose: options.onClose } : {}),
    });
    set(result.state);
    result.replaced?.onClose?.();
    return id;
  }

  const store = {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getState: () => state,

    /** Opens a registered dialog by name (product §2 named dialogs). Returns the window id. */
    openNamed(name: DialogName, props: DialogProps = {}, options: OpenOptions = {}): string {
      const dialog = registeredDialog(name);
      return openEntry(
        options.id ?? name,
        options.title ?? dialog.title(props),
        options.size ?? dialog.size,
        () => dialog.render(props),
        options,
        name,
      );
    },

    /**
     * Opens a registered dialog by name, or any component, in a window. Returns the
     * window id (the name, or a fresh one, unless `options.id` says).
     */
    open<P extends object>(
      target: DialogName | ComponentType<P>,
      props: P,
      options: OpenOptions = {},
    ): string {
      if (typeof target === 'string') return store.openNamed(target, props as DialogProps, options);
      fresh += 1;
      return openEntry(
        options.id ?? `window-${fresh}`,
        options.title ?? '',
        options.size ?? 'md',
        () => createElement(target, props),
        options,
      );
    },

    close(id: string) {
      const result = closeWindow(state, id);
      set(result.state);
      result.closed?.onClose?.();
    },

    /** Escape: the topmost open window only (product §2). */
    closeTopmost(): boolean {
      const top = topmostWindow(state);
      if (!top) return false;
      store.close(top.id);
      return true;
    },

    /** Minimises, or refuses with the toast of product §8 when 5 are minimised already. */
    minimize(id: string): boolean {
      const result = minimizeWindow(state, id);
      if (result.refused) {
        notifications.show({
          color: 'red',
          message: i18next.t('dialogs:window.tooManyMinimized'),
          autoClose: 4000,
        });
        return false;
      }
      set(result.state);
      return true;
    },
    restore: (id: string) => set(restoreWindow(state, id)),
    focus: (id: string) => set(focusWindow(state, id)),
    toggleFullScreen: (id: string) => set(toggleFullScreen(state, id)),
    move: (id: string, position: { x: number; y: number }) => set(moveWindow(state, id, position)),
    isOpen: (id: string) => state.windows.some((w) => w.id === id),
    /** Closes everything (signing out, tests). */
    reset() {
      const all = state.windows;
      set(emptyWindows);
      for (const w of all) w.onClose?.();
    },
  };
  return store;
}

export type WindowsStore = ReturnType<typeof createWindowsStore>;

/** The console's one window manager. */
export const windowsStore = createWindowsStore();
