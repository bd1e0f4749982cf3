import { ActionIcon, Portal, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DialogWindow } from './DialogWindow';
import { useWindows } from './use-windows';
import classes from './windows.module.css';
import { minimizedWindows, topmostWindow, trayVisible } from './windows-state';

/** Above the page and the header, below popovers (300) so selects inside windows open over them. */
const OVERLAY_Z = 200;
const TRAY_Z = 190;

/** The open windows and the tray of minimized ones (product §2 Dialog system). */
export default function WindowLayer() {
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
