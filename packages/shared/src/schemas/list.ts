import { z } from 'zod';
import { atMostChars, fields, text, wholeNumber } from './messages';

/** `limit` (1..100) and `offset` of every list (ARCHITECTURE §4). */
export const pageQuerySchema = fields('Query', {
  limit: z.coerce
    .number({ error: 'limit must be between 1 and 100' })
    .int('limit must be between 1 and 100')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(25),
  offset: z.coerce
    .number({ error: 'offset must be a whole number' })
    .int('offset must be a whole number')
    .min(0, 'offset must not be negative')
    .default(0),
});

/** A comma-joined list parameter (product §7 General) as an array of trimmed, non-empty items. */
export const commaList = text('The list')
  .max(2000, 'The list must be at most 2000 characters')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** A comma-joined list of positive integers (`level=1,2`). */
export const commaIntList = commaList.pipe(
  z.array(z.string().regex(/^\d+$/, 'Give a comma-separated list of numbers').transform(Number)),
);

/**
 * The list parameters of every list (ARCHITECTURE §4, product §7 Search): the page, `sort`
 * (a column, `-` first for descending), `q` searched in `search-fields`, and `fields` to keep
 * of each row. An area adds its filters with `.extend`.
 */
export const listQuerySchema = pageQuerySchema.extend({
  sort: text('Sort').max(100, atMostChars('Sort', 100)).optional(),
  q: text('Search').trim().max(200, atMostChars('Search', 200)).optional(),
  'search-fields': commaList.optional(),
  fields: commaList.optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** What a console table sends of the list parameters: its search, sort and page (the area adds its filters). */
export type ListParams = Required<Pick<ListQuery, 'q' | 'sort' | 'limit' | 'offset'>>;

/** A filter by the id of one thing (`company_id=3`). */
export const idFilter = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(wholeNumber(label))
    .min(1, `${label} must be a positive whole number`);
