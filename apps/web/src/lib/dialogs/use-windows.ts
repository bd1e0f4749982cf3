import { useContext, useMemo, useSyncExternalStore } from 'react';
import { type ConfirmOptions, confirm } from './confirm';
import { WindowsStoreContext } from './window-context';

/**
 * The window manager for components: `openNamed(name, props, {id})`,
 * `open(Component, props, {id})`, `close(id)`, `minimize`, `restore`,
 * `toggleFullScreen`, `confirm({title, message, confirmLabel})`, and the state.
 */
export function useWindows() {
  const store = useContext(WindowsStoreContext);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const ask = useMemo(() => (options: ConfirmOptions) => confirm(options, store), [store]);
  return { ...store, state, confirm: ask };
}
