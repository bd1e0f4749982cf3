import { ActionIcon, Tooltip } from '@mantine/core';
import { useFocusTrap } from '@mantine/hooks';
import { IconMaximize, IconMinimize, IconMinus, IconX } from '@tabler/icons-react';
import { type PointerEvent, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openerOf } from './opener';
import { type WindowHandle, WindowHandleContext, WindowsStoreContext } from './window-context';
import classes from './windows.module.css';
import type { WindowEntry, WindowSize } from './windows-state';

const WIDTHS: Record<WindowSize, number> = { sm: 420, md: 560, lg: 820, xl: 1100 };
/** How much of a dragged window must stay on screen to grab it again. */
const KEEP_VISIBLE_PX = 80;

type Drag = { pointerX: number; pointerY: number; start: { x: number; y: number }; rect: DOMRect };

/**
 * One window of product §2: dragged by its title bar, minimised to the tray, full screen
 * and back, closed by its button or Escape (handled by the provider for the topmost).
 */
export function DialogWindow({
  entry,
  zIndex,
  active,
}: {
  entry: WindowEntry;
  zIndex: number;
  active: boolean;
}) {
  const { t } = useTranslation('dialogs');
  const store = useContext(WindowsStoreContext);
  const titleId = useId();
  const rootRef = useRef<HTMLDivElement | null>(null);
  const trapRef = useFocusTrap(active);
  const drag = useRef<Drag | null>(null);
  const [live, setLive] = useState<{ x: number; y: number } | null>(null);
  // What had the focus when the window opened (read while rendering, before the trap moves it)
  // gets it back when the window closes, as a modal dialog does (WAI-ARIA dialog pattern).
  const [opener] = useState(() => openerOf(document.activeElement));
  useEffect(
    () => () => {
      if (opener?.isConnected && opener !== document.body) opener.focus();
    },
    [opener],
  );
  const position = live ?? entry.position;

  const handle = useMemo<WindowHandle>(
    () => ({ id: entry.id, close: () => store.close(entry.id), minimize: () => store.minimize(entry.id) }),
    [store, entry.id],
  );

  function startDrag(event: PointerEvent<HTMLDivElement>) {
    if (entry.fullScreen || event.button !== 0) return;
    if ((event.target as HTMLElement).closest('button')) return;
    const rect = rootRef.current?.getBoundingClientRect();
    if (!rect) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerX: event.clientX, pointerY: event.clientY, start: entry.position, rect };
  }

  function moveDrag(event: PointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d) return;
    // Keep the title bar reachable: never above the top edge, never fully off a side.
    const left = Math.min(
      Math.max(d.rect.left + event.clientX - d.pointerX, KEEP_VISIBLE_PX - d.rect.width),
      window.innerWidth - KEEP_VISIBLE_PX,
    );
    const top = Math.min(Math.max(d.rect.top + event.clientY - d.pointerY, 0), window.innerHeight - 40);
    setLive({ x: d.start.x + left - d.rect.left, y: d.start.y + top - d.rect.top });
  }

  function endDrag() {
    if (!drag.current) return;
    drag.current = null;
    if (live) store.move(entry.id, live);
    setLive(null);
  }

  const fullLabel = entry.fullScreen ? t('window.exitFullScreen') : t('window.fullScreen');
  return (
    <div
      ref={(node) => {
        rootRef.current = node;
        trapRef(node);
      }}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      className={classes.window}
      data-testid="window"
      data-window-id={entry.id}
      data-full-screen={entry.fullScreen || undefined}
      data-minimized={entry.minimized || undefined}
      data-active={active || undefined}
      style={
        entry.fullScreen
          ? { zIndex }
          : {
              zIndex,
              width: WIDTHS[entry.size],
              transform: `translate(calc(-50% + ${position.x}px), ${position.y}px)`,
            }
      }
      onPointerDown={() => store.focus(entry.id)}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a pointer drag handle; keyboard users have full screen and Escape. */}
      <div
        className={classes.titleBar}
        data-testid="window-title-bar"
        onPointerDown={startDrag}
        onPointerMove={moveDrag}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={(event) => {
          if (!(event.target as HTMLElement).closest('button')) store.toggleFullScreen(entry.id);
        }}
      >
        <div id={titleId} className={classes.title} data-testid="window-title">
          {entry.title}
        </div>
        <Tooltip label={t('window.minimize')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('window.minimize')}
            onClick={handle.minimize}
          >
            <IconMinus size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={fullLabel}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={fullLabel}
            onClick={() => store.toggleFullScreen(entry.id)}
          >
            {entry.fullScreen ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('window.close')}>
          <ActionIcon variant="subtle" color="gray" aria-label={t('window.close')} onClick={handle.close}>
            <IconX size={16} />
          </ActionIcon>
        </Tooltip>
      </div>
      <div className={classes.body}>
        <WindowHandleContext.Provider value={handle}>{entry.render()}</WindowHandleContext.Provider>
      </div>
    </div>
  );
}
