/**
 * The 'table settings' dialog of product §2: which columns show, in what order, and how
 * dense the rows are. Kept per user in the storage of product §7 (one record per table), and
 * read back defensively: a stored value from an older console (a column that no longer
 * exists, a new column it never knew) still gives a valid layout.
 */

export const DENSITIES = ['compact', 'normal', 'comfortable'] as const;
export type Density = (typeof DENSITIES)[number];

export type TableSettings = {
  /** Every column id, in display order. */
  order: string[];
  /** Ids of hidden columns. */
  hidden: string[];
  density: Density;
};

export type ColumnInfo = {
  id: string;
  /** Hidden until the user shows it. */
  hiddenByDefault?: boolean;
  /** Always shown and never moved (selection, name). */
  locked?: boolean;
};

export function defaultSettings(columns: readonly ColumnInfo[]): TableSettings {
  return {
    order: columns.map((c) => c.id),
    hidden: columns.filter((c) => c.hiddenByDefault).map((c) => c.id),
    density: 'normal',
  };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A valid layout from whatever was stored. */
export function normalizeSettings(stored: unknown, columns: readonly ColumnInfo[]): TableSettings {
  const fallback = defaultSettings(columns);
  if (!stored || typeof stored !== 'object') return fallback;
  const value = stored as Partial<Record<keyof TableSettings, unknown>>;
  const known = new Set(columns.map((c) => c.id));
  const locked = columns.filter((c) => c.locked).map((c) => c.id);
  const storedOrder = [...new Set(strings(value.order))].filter(
    (id) => known.has(id) && !locked.includes(id),
  );
  // Columns the stored layout never knew go where the default order has them.
  const missing = fallback.order.filter((id) => !locked.includes(id) && !storedOrder.includes(id));
  const order = [...locked, ...storedOrder];
  for (const id of missing) {
    const at = fallback.order.indexOf(id);
    const before = fallback.order.slice(0, at).findLast((other) => order.includes(other));
    order.splice(before === undefined ? order.length : order.indexOf(before) + 1, 0, id);
  }
  const storedHidden = strings(value.hidden);
  const hidden = Array.isArray(value.hidden)
    ? [
        ...storedHidden.filter((id) => known.has(id) && !locked.includes(id)),
        ...missing.filter((id) => fallback.hidden.includes(id)),
      ]
    : fallback.hidden;
  const density = (DENSITIES as readonly unknown[]).includes(value.density)
    ? (value.density as Density)
    : fallback.density;
  return { order, hidden: [...new Set(hidden)], density };
}

/** Moves a column one place up (-1) or down (+1); locked columns stay. */
export function moveColumn(
  settings: TableSettings,
  id: string,
  step: -1 | 1,
  columns: readonly ColumnInfo[],
): TableSettings {
  const locked = new Set(columns.filter((c) => c.locked).map((c) => c.id));
  const from = settings.order.indexOf(id);
  const to = from + step;
  if (from < 0 || locked.has(id) || to < 0 || to >= settings.order.length) return settings;
  if (locked.has(settings.order[to]!)) return settings;
  const order = [...settings.order];
  [order[from], order[to]] = [order[to]!, order[from]!];
  return { ...settings, order };
}

export function toggleColumn(settings: TableSettings, id: string, visible: boolean): TableSettings {
  const hidden = settings.hidden.filter((h) => h !== id);
  return { ...settings, hidden: visible ? hidden : [...hidden, id] };
}
