import { z } from 'zod';
import { fields, text } from './messages';

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
