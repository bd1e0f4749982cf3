import { ActionIcon, Portal, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { type ReactNode, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { registerClientDialogs } from './client-dialogs';
import { DialogWindow } from './DialogWindow';
import { listenForEscape } from './escape';
import { useWindows } from './use-windows';
import { WindowsStoreContext } from './window-context';
import classes from './windows.module.css';
import { minimizedWindows, topmostWindow, trayVisible } from './windows-state';
import { type WindowsStore, windowsStore } from './windows-store';

/** Above the page and the header, below popovers (300) so selects inside windows open over them. */
const OVERLAY_Z = 200;
const TRAY_Z = 190;

function WindowLayer() {
  const { t } = useTranslation('dialogs');
  const { state, restore, close } = useWindows();
  const top = topmostWindow(state);
  const stacked = [...state.windows].sort((a, b) => a.z - b.z);
  return (
    <Portal>
      {top && <div className={classes.overlay} style={{ zIndex: OVERLAY_Z }} data-testid="window-overlay" />}
      {/* Stable DOM order (by id) so that re-stacking never remounts a window's content. */}
      {state.windows.map((entry) => (
        <DialogWindow
          key={`${entry.id}:${entry.generation}`}
          entry={entry}
          zIndex={OVERLAY_Z + 1 + stacked.indexOf(entry)}
          active={entry === top}
        />
      ))}
      {trayVisible(state) && (
        <nav
          className={classes.tray}
          style={{ zIndex: TRAY_Z }}
          aria-label={t('tray.label')}
          data-testid="window-tray"
        >
          {minimizedWindows(state).map((entry) => (
            <div
              key={entry.id}
              className={classes.trayItem}
              data-testid="tray-item"
              data-window-id={entry.id}
            >
              <UnstyledButton
                onClick={() => restore(entry.id)}
                aria-label={t('tray.restore')}
                style={{ minWidth: 0 }}
              >
                <Text size="sm" truncate>
                  {entry.title}
                </Text>
              </UnstyledButton>
              <Tooltip label={t('window.close')}>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={t('window.close')}
                  onClick={() => close(entry.id)}
                >
                  <IconX size={14} />
                </ActionIcon>
              </Tooltip>
            </div>
          ))}
        </nav>
      )}
    </Portal>
  );
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
      <WindowLayer />
    </WindowsStoreContext.Provider>
  );
}

/** The store in use, for code that opens windows from callbacks. */
export function useWindowsStore(): WindowsStore {
  return useContext(WindowsStoreContext);
}
