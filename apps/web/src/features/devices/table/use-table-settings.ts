import { useUserStorage } from '#src/lib/storage/user-storage';
import { type ColumnInfo, normalizeSettings } from '../utils/table-settings';

/**
 * Reads and writes one table's settings in the user's storage; every change is saved at once.
 * A module of its own: the table reads its settings on the first screen, the settings
 * dialog (with its segmented control and checkboxes) loads when it is opened.
 */
export function useTableSettings(storageKey: string, columns: readonly ColumnInfo[]) {
  const [stored, store] = useUserStorage<unknown>(storageKey, null);
  const settings = normalizeSettings(stored, columns);
  return [settings, store] as const;
}
