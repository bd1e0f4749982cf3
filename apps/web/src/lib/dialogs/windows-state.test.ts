import { MAX_MINIMIZED_WINDOWS } from '@fleetgate/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import {
  closeWindow,
  emptyWindows,
  minimizeWindow,
  type NewWindow,
  openWindow,
  restoreWindow,
  topmostWindow,
  trayVisible,
  type WindowsState,
} from './windows-state';
import { createWindowsStore } from './windows-store';

const entry = (id: string, extra: Partial<NewWindow> = {}): NewWindow => ({
  id,
  title: id,
  size: 'md',
  render: () => null,
  ...extra,
});

function openAll(ids: string[]): WindowsState {
  return ids.reduce((state, id) => openWindow(state, entry(id)).state, emptyWindows);
}

describe('window manager (product §2 Dialog system, §4 Modal)', () => {
  it('opening an id that is open replaces it, on top and afresh', () => {
    let state = openAll(['a', 'b']);
    state = minimizeWindow(state, 'a').state;
    const result = openWindow(state, entry('a', { title: 'again' }));
    expect(result.replaced?.title).toBe('a');
    expect(result.state.windows.filter((w) => w.id === 'a')).toHaveLength(1);
    const a = result.state.windows.find((w) => w.id === 'a')!;
    expect(a).toMatchObject({ title: 'again', minimized: false, generation: 2 });
    expect(topmostWindow(result.state)?.id).toBe('a');
  });

  it('cascades a window opened over others', () => {
    const state = openAll(['a', 'b']);
    expect(state.windows.map((w) => w.position)).toEqual([
      { x: 0, y: 0 },
      { x: 24, y: 24 },
    ]);
  });

  it('Escape closes the topmost open window only', () => {
    let state = openAll(['a', 'b', 'c']);
    state = minimizeWindow(state, 'c').state;
    expect(topmostWindow(state)?.id).toBe('b');
    state = closeWindow(state, topmostWindow(state)!.id).state;
    expect(state.windows.map((w) => w.id)).toEqual(['a', 'c']);
    expect(topmostWindow(state)?.id).toBe('a');
  });

  it('shows the tray once the last non-minimised window closes', () => {
    let state = openAll(['a', 'b']);
    state = minimizeWindow(state, 'a').state;
    expect(trayVisible(state)).toBe(false);
    state = closeWindow(state, 'b').state;
    expect(trayVisible(state)).toBe(true);
    state = restoreWindow(state, 'a');
    expect(trayVisible(state)).toBe(false);
    expect(topmostWindow(state)?.id).toBe('a');
  });

  it(`refuses to minimise more than ${MAX_MINIMIZED_WINDOWS} windows`, () => {
    const ids = Array.from({ length: MAX_MINIMIZED_WINDOWS + 1 }, (_, i) => `w${i}`);
    let state = openAll(ids);
    for (const id of ids.slice(0, MAX_MINIMIZED_WINDOWS)) state = minimizeWindow(state, id).state;
    const last = minimizeWindow(state, ids.at(-1)!);
    expect(last.refused).toBe('too-many');
    expect(last.state.windows.find((w) => w.id === ids.at(-1))?.minimized).toBe(false);
  });

  it('the store calls onClose once whether a window is closed, replaced or reset', () => {
    const store = createWindowsStore();
    const first = vi.fn();
    const second = vi.fn();
    store.open(() => null, {}, { id: 'x', onClose: first });
    store.open(() => null, {}, { id: 'x', onClose: second });
    expect(first).toHaveBeenCalledTimes(1);
    expect(store.closeTopmost()).toBe(true);
    expect(second).toHaveBeenCalledTimes(1);
    expect(store.closeTopmost()).toBe(false);
  });
});
