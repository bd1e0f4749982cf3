/**
 * Escape closes the topmost window (product §2), but an open drop-down inside it comes first:
 * Escape in an open select, menu or popover closes only that, and the window keeps its
 * input. These are the marks an open pop-up leaves on the element that has the focus, or
 * around it: an expanded combobox or pop-up button (Mantine also marks it with
 * `data-mantine-stop-propagation`, its own modals' rule), a list box, a menu, a dropdown.
 */
const OPEN_POPUP = [
  '[data-mantine-stop-propagation]',
  '[aria-haspopup][aria-expanded="true"]',
  '[role="combobox"][aria-expanded="true"]',
  '[role="listbox"]',
  '[role="menu"]',
  '.mantine-Popover-dropdown',
  '.mantine-Menu-dropdown',
  '.mantine-Combobox-dropdown',
].join(', ');

/**
 * Whether an Escape pressed on `target` belongs to an open pop-up. It must be asked before
 * the pop-up handles the key: the pop-up closes at once, and its marks go with it.
 */
export function escapeBelongsToPopup(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(OPEN_POPUP) !== null;
}

/**
 * Listens for Escape on `root` and calls `close` unless the key belongs to an open pop-up
 * or someone handled it already (default prevented). The pop-up check runs in the capture
 * phase, before any handler; the closing in the bubble phase, after all of them.
 * Returns the function that stops listening.
 */
export function listenForEscape(root: Window, close: () => boolean): () => void {
  let taken: Event | null = null;
  const before = (event: KeyboardEvent) => {
    if (event.key === 'Escape') taken = escapeBelongsToPopup(event.target) ? event : null;
  };
  const after = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const popup = taken === event;
    taken = null;
    if (popup) return;
    if (close()) event.preventDefault();
  };
  root.addEventListener('keydown', before, true);
  root.addEventListener('keydown', after);
  return () => {
    root.removeEventListener('keydown', before, true);
    root.removeEventListener('keydown', after);
  };
}
