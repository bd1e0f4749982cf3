import { z } from 'zod';

/** `limit` (1..100) and `offset` of every list (ARCHITECTURE §4). */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(25),
  offset: z.coerce.number().int().min(0, 'offset must not be negative').default(0),
});

/** A comma-joined list parameter (spec §7 General) as an array of trimmed, non-empty items. */
export const commaList = z
  .string()
  .max(2000)
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** A comma-joined list of positive integers (`level=1,2`). */
export const commaIntList = commaList.pipe(
  z.array(z.string().regex(/^\d+$/, 'Expected a comma-separated list of numbers').transform(Number)),
);
