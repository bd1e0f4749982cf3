/** The list parameters of ARCHITECTURE §4 and product §7 Search, as services and repositories read them. */
export type { ListQuery } from '@fleetgate/shared/schemas/list';

/** Keeps only the asked-for fields of each row that the row has (product §7: `fields` filter). */
export function pickFields<T extends Record<string, unknown>>(
  rows: T[],
  fields: readonly string[] | undefined,
): Partial<T>[] {
  if (!fields) return rows;
  return rows.map(
    (row) => Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, row[f]])) as Partial<T>,
  );
}
