import { commaList, pageQuerySchema } from '@fleetgate/shared/schemas/list';
import { z } from 'zod';

/** The list parameters of ARCHITECTURE §4 and product §7 Search. */
export const listQuerySchema = pageQuerySchema.extend({
  sort: z.string().max(100).optional(),
  q: z.string().trim().max(200).optional(),
  'search-fields': commaList.optional(),
  fields: commaList.optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

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
