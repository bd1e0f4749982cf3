import { afterEach, describe, expect, it, vi } from 'vitest';
import { escapeBelongsToPopup, listenForEscape } from './escape';

afterEach(() => {
  document.body.innerHTML = '';
});

function press(target: Element, key = 'Escape') {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

describe('Escape: an open pop-up first, then the topmost window (product §2)', () => {
  it('knows the marks of an open combobox, menu or popover', () => {
    document.body.innerHTML = `
      <div role="dialog" data-testid="window">
        <input id="select" aria-haspopup="listbox" aria-expanded="true" />
        <input id="closed" aria-haspopup="listbox" aria-expanded="false" />
        <button id="menu-button" aria-haspopup="menu" aria-expanded="true"></button>
        <div role="menu"><button id="item" role="menuitem"></button></div>
        <div class="mantine-Popover-dropdown"><input id="in-popover" /></div>
        <input id="plain" />
      </div>`;
    const at = (id: string) => document.getElementById(id);
    expect(escapeBelongsToPopup(at('select'))).toBe(true);
    expect(escapeBelongsToPopup(at('menu-button'))).toBe(true);
    expect(escapeBelongsToPopup(at('item'))).toBe(true);
    expect(escapeBelongsToPopup(at('in-popover'))).toBe(true);
    expect(escapeBelongsToPopup(at('closed'))).toBe(false);
    expect(escapeBelongsToPopup(at('plain'))).toBe(false);
    expect(escapeBelongsToPopup(null)).toBe(false);
  });

  it('leaves the window open when an open list takes Escape, even though the list closes before the window hears it', () => {
    document.body.innerHTML =
      '<div role="dialog"><input aria-haspopup="listbox" aria-expanded="true" /></div>';
    const input = document.querySelector('input')!;
    // The list's own handler closes it at once, as Mantine's combobox does: by the time the
    // key reaches the window, nothing shows that a list was open.
    input.addEventListener('keydown', () => input.setAttribute('aria-expanded', 'false'));
    const close = vi.fn(() => true);
    const stop = listenForEscape(window, close);
    press(input);
    expect(close).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    // The next Escape has no list to close: it closes the window.
    const second = press(input);
    expect(close).toHaveBeenCalledTimes(1);
    expect(second.defaultPrevented).toBe(true);
    stop();
  });

  it('closes the window on Escape elsewhere, and not on other keys or a handled Escape', () => {
    document.body.innerHTML = '<div role="dialog"><input /></div>';
    const input = document.querySelector('input')!;
    const close = vi.fn(() => true);
    const stop = listenForEscape(window, close);
    press(input, 'Enter');
    expect(close).not.toHaveBeenCalled();
    const handled = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    input.addEventListener('keydown', (e) => e.preventDefault(), { once: true });
    input.dispatchEvent(handled);
    expect(close).not.toHaveBeenCalled();
    press(input);
    expect(close).toHaveBeenCalledTimes(1);
    stop();
    press(input);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
