import { atLeast, atMost, wholeNumber } from '@fleetgate/shared/schemas/messages';
import { z } from 'zod';

/** The largest id a table's integer key holds. */
const MAX_ID = 2_147_483_647;

/**
 * A record's id in a path or query: a whole number from 1 to the largest key, refused in
 * words otherwise ('Id must be a whole number', never zod's 'received NaN').
 */
export const recordId = (label = 'Id') =>
  z.coerce
    .number({ error: wholeNumber(label) })
    .int(wholeNumber(label))
    .min(1, atLeast(label, 1))
    .max(MAX_ID, atMost(label, MAX_ID));

/** `/{id}` of a route. */
export const idParams = z.object({ id: recordId() });
