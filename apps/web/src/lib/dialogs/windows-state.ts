import { MAX_MINIMIZED_WINDOWS } from '@fleetgate/shared/constants';
import type { ReactNode } from 'react';

/** Window widths; full screen overrides them. */
export type WindowSize = 'sm' | 'md' | 'lg' | 'xl';

/** One open (or minimised) window of the dialog system (product §2 Dialog system, §4 Modal). */
export type WindowEntry = {
  id: string;
  /** The registry name it was opened by, if any. */
  name?: string;
  title: ReactNode;
  size: WindowSize;
  render: () => ReactNode;
  minimized: boolean;
  fullScreen: boolean;
  /** Offset from the default place, moved by dragging the title bar. */
  position: { x: number; y: number };
  /** Stacking order: the highest is on top. */
  z: number;
  /** Bumped when a window with the same id replaces it, so that its content starts afresh. */
  generation: number;
  /** Called once when the window goes away, whatever the cause (close, Escape, replaced). */
  onClose?: () => void;
};

export type WindowsState = { windows: WindowEntry[]; counter: number };

export const emptyWindows: WindowsState = { windows: [], counter: 0 };

const CASCADE_PX = 24;
const CASCADE_MAX = 6;

export type NewWindow = Omit<WindowEntry, 'minimized' | 'fullScreen' | 'position' | 'z' | 'generation'>;

/**
 * Opens a window on top. A window with the same id is replaced (product §2): it goes away
 * (its onClose runs) and the new one takes its place, open and not minimised.
 */
export function openWindow(
  state: WindowsState,
  entry: NewWindow,
): { state: WindowsState; replaced?: WindowEntry } {
  const counter = state.counter + 1;
  const replaced = state.windows.find((w) => w.id === entry.id);
  // Each window opened over others sits a little lower and to the right, so both title bars show.
  const below = Math.min(state.windows.filter((w) => !w.minimized && w.id !== entry.id).length, CASCADE_MAX);
  const window: WindowEntry = {
    ...entry,
    minimized: false,
    fullScreen: false,
    position: { x: below * CASCADE_PX, y: below * CASCADE_PX },
    z: counter,
    generation: (replaced?.generation ?? 0) + 1,
  };
  return {
    state: { counter, windows: [...state.windows.filter((w) => w.id !== entry.id), window] },
    ...(replaced ? { replaced } : {}),
  };
}

export function closeWindow(state: WindowsState, id: string): { state: WindowsState; closed?: WindowEntry } {
  const closed = state.windows.find((w) => w.id === id);
  if (!closed) return { state };
  return { state: { ...state, windows: state.windows.filter((w) => w.id !== id) }, closed };
}

function update(state: WindowsState, id: string, change: (w: WindowEntry) => WindowEntry): WindowsState {
  return { ...state, windows: state.windows.map((w) => (w.id === id ? change(w) : w)) };
}

export const minimizedWindows = (state: WindowsState) => state.windows.filter((w) => w.minimized);
export const openWindows = (state: WindowsState) => state.windows.filter((w) => !w.minimized);

/** At most MAX_MINIMIZED_WINDOWS (5) minimised at once (product §8, §9). */
export function minimizeWindow(
  state: WindowsState,
  id: string,
): { state: WindowsState; refused?: 'too-many' } {
  const target = state.windows.find((w) => w.id === id);
  if (!target || target.minimized) return { state };
  if (minimizedWindows(state).length >= MAX_MINIMIZED_WINDOWS) return { state, refused: 'too-many' };
  return { state: update(state, id, (w) => ({ ...w, minimized: true })) };
}

/** Back from the tray, on top. */
export function restoreWindow(state: WindowsState, id: string): WindowsState {
  if (!state.windows.some((w) => w.id === id)) return state;
  const counter = state.counter + 1;
  return { ...update(state, id, (w) => ({ ...w, minimized: false, z: counter })), counter };
}

export function focusWindow(state: WindowsState, id: string): WindowsState {
  const target = state.windows.find((w) => w.id === id);
  if (!target || target.z === state.counter) return state;
  const counter = state.counter + 1;
  return { ...update(state, id, (w) => ({ ...w, z: counter })), counter };
}

export function toggleFullScreen(state: WindowsState, id: string): WindowsState {
  return update(state, id, (w) => ({ ...w, fullScreen: !w.fullScreen }));
}

export function moveWindow(
  state: WindowsState,
  id: string,
  position: { x: number; y: number },
): WindowsState {
  return update(state, id, (w) => ({ ...w, position }));
}

/** The open window on top: the one Escape closes (product §2: Escape closes the topmost only). */
export function topmostWindow(state: WindowsState): WindowEntry | undefined {
  let top: WindowEntry | undefined;
  for (const w of openWindows(state)) if (!top || w.z > top.z) top = w;
  return top;
}

/** The tray of minimised windows shows once no window is open (product §2). */
export function trayVisible(state: WindowsState): boolean {
  return minimizedWindows(state).length > 0 && openWindows(state).length === 0;
}
