import type { Notice } from '@fleetgate/shared/schemas/notices';
import { describe, expect, it } from 'vitest';
import { isImportant, sortNewestFirst } from './important';

const notice = (id: number, enabled_at: string): Notice => ({
  id,
  type: 'info',
  message: `n${id}`,
  enabled_at,
});

describe("the 'Important' marker (product §4 Global notice alert)", () => {
  const list = [notice(1, '2025-01-01T10:00:00.000Z'), notice(2, '2025-01-02T10:00:00.000Z')];

  it('shows when no last-seen time is stored', () => {
    expect(isImportant(list, null)).toBe(true);
  });

  it('shows when the newest notice is later than the last look, not otherwise', () => {
    expect(isImportant(list, '2025-01-02T09:59:59.000Z')).toBe(true);
    expect(isImportant(list, '2025-01-02T10:00:00.000Z')).toBe(false);
    expect(isImportant(list, '2025-02-01T00:00:00.000Z')).toBe(false);
  });

  it('never shows without notices', () => {
    expect(isImportant([], null)).toBe(false);
  });

  it('sorts newest first', () => {
    expect(sortNewestFirst(list).map((n) => n.id)).toEqual([2, 1]);
  });
});
