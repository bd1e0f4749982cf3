import type { TFunction } from 'i18next';

type Control = 'first' | 'previous' | 'last' | 'next';

/**
 * Names for a pagination's arrows (Mantine's `getControlProps`), which it draws as bare
 * icons: a screen reader would otherwise say only 'button'.
 */
export function pageControlProps(t: TFunction) {
  const names: Partial<Record<Control, string>> = {
    previous: t('common:table.previous'),
    next: t('common:table.next'),
  };
  return (control: Control) => (names[control] ? { 'aria-label': names[control] } : {});
}
