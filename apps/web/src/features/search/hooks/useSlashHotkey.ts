import { useEffect, useRef } from 'react';

/** True when the key press belongs to a field the user is typing in. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])'))
    return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Calls `onSlash` when '/' is pressed anywhere but in a field (product §2 Global search). */
export function useSlashHotkey(onSlash: () => void): void {
  const handler = useRef(onSlash);
  handler.current = onSlash;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTyping(event.target)) return;
      event.preventDefault();
      handler.current();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
