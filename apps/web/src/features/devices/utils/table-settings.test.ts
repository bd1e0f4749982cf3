import { describe, expect, it } from 'vitest';
import {
  type ColumnInfo,
  defaultSettings,
  moveColumn,
  normalizeSettings,
  toggleColumn,
} from './table-settings';

const COLUMNS: ColumnInfo[] = [
  { id: 'select', locked: true },
  { id: 'name', locked: true },
  { id: 'status' },
  { id: 'model' },
  { id: 'imei', hiddenByDefault: true },
  { id: 'firmware' },
];

describe("'table settings' (product §2): visibility, order, density", () => {
  it('starts from the default order with the default hidden columns', () => {
    expect(defaultSettings(COLUMNS)).toEqual({
      order: ['select', 'name', 'status', 'model', 'imei', 'firmware'],
      hidden: ['imei'],
      density: 'normal',
    });
  });

  it('reads a stored layout back, dropping columns that no longer exist and placing new ones', () => {
    const stored = {
      order: ['firmware', 'gone', 'status', 'name'],
      hidden: ['status', 'gone', 'name'],
      density: 'compact',
    };
    const settings = normalizeSettings(stored, COLUMNS);
    // Locked columns stay first; model and imei (unknown to the stored layout) go where the default has them.
    expect(settings.order).toEqual(['select', 'name', 'firmware', 'status', 'model', 'imei']);
    // A locked column is never hidden; a new column hidden by default stays hidden.
    expect(settings.hidden).toEqual(['status', 'imei']);
    expect(settings.density).toBe('compact');
  });

  it('falls back to the defaults for anything unreadable', () => {
    for (const junk of [null, 'x', 42, { order: 'name', hidden: 7, density: 'huge' }]) {
      const settings = normalizeSettings(junk, COLUMNS);
      expect(settings.density).toBe('normal');
      expect(settings.order).toEqual(defaultSettings(COLUMNS).order);
    }
  });

  it('moves a column one place, never past a locked one, and toggles visibility', () => {
    let settings = defaultSettings(COLUMNS);
    settings = moveColumn(settings, 'firmware', -1, COLUMNS);
    expect(settings.order).toEqual(['select', 'name', 'status', 'model', 'firmware', 'imei']);
    expect(moveColumn(settings, 'status', -1, COLUMNS)).toBe(settings);
    expect(moveColumn(settings, 'name', 1, COLUMNS)).toBe(settings);
    settings = toggleColumn(settings, 'imei', true);
    settings = toggleColumn(settings, 'model', false);
    expect(settings.hidden).toEqual(['model']);
  });
});
