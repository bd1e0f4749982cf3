import { type ComponentType, type ReactNode, useContext, useEffect, useState } from 'react';
import { registerClientDialogs } from './client-dialogs';
import { listenForEscape } from './escape';
import { useWindows } from './use-windows';
import { WindowsStoreContext } from './window-context';
import { type WindowsStore, windowsStore } from './windows-store';

/** The windows and the tray, loaded with the first window: most pages open none at first. */
function WindowLayerWhenNeeded() {
  const { state } = useWindows();
  const [Layer, setLayer] = useState<ComponentType | null>(null);
  const open = state.windows.length > 0;
  useEffect(() => {
    if (open && !Layer) void import('./WindowLayer').then((module) => setLayer(() => module.default));
  }, [open, Layer]);
  return Layer ? <Layer /> : null;
}

/**
 * Mounts the dialog system (product §2): the windows and the tray, Escape for the topmost
 * window, and the client's password and verification dialogs (product §4).
 */
export function WindowsProvider({
  children,
  store = windowsStore,
}: {
  children: ReactNode;
  store?: WindowsStore;
}) {
  useEffect(() => registerClientDialogs(store), [store]);
  // Escape closes the topmost window, unless an open select, menu or popover takes it first.
  useEffect(() => listenForEscape(window, () => store.closeTopmost()), [store]);
  // Windows belong to the signed-in session: none survives the provider.
  useEffect(() => () => store.reset(), [store]);
  return (
    <WindowsStoreContext.Provider value={store}>
      {children}
      <WindowLayerWhenNeeded />
    </WindowsStoreContext.Provider>
  );
}

/** The store in use, for code that opens windows from callbacks. */
export function useWindowsStore(): WindowsStore {
  return useContext(WindowsStoreContext);
}
