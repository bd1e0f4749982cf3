/**
 * The control the focus goes back to when a window closes: the focused element, or, for an
 * item of a drop-down menu (which is gone once the menu closes), the button that opened the menu.
 */
export function openerOf(focused: Element | null): HTMLElement | null {
  if (!(focused instanceof HTMLElement)) return null;
  const menu = focused.closest<HTMLElement>('[role="menu"]');
  if (!menu?.id) return focused;
  const targets = document.querySelectorAll<HTMLElement>('[aria-controls]');
  return [...targets].find((target) => target.getAttribute('aria-controls') === menu.id) ?? focused;
}
