import { z } from 'zod';
import { fields, listOf, numeric, text, typeMessage, whole } from './messages';

/**
 * What the resource summary of the header reads (product §2 Header widgets 3, product §7 Data
 * reads). This server keeps no data allowance and no credits yet: GET /companies/{id} answers
 * no `remaining_data` and GET /credits/summary is not served, so the summary shows nothing
 * (or the read's failure). A server that keeps them answers in these shapes.
 */

/** The part of GET /companies/{id} the resource summary reads. */
export const companyResourcesSchema = fields('Company', {
  id: whole('Id'),
  name: text('Name'),
  /** Data left to the company's devices, in bytes. */
  remaining_data: numeric('Remaining data').nullable().optional(),
});
export type CompanyResources = z.infer<typeof companyResourcesSchema>;

/** One entry of `credits.left`: credits of one type (several entries may share a type). */
export const creditEntrySchema = fields('Credits', {
  credit_type: z.union([whole('Credit type'), text('Credit type')], {
    error: typeMessage('Credit type', 'a number or text'),
  }),
  credit_type_name: text('Credit type name'),
  credits_left: numeric('Credits left'),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

/** GET /credits/summary: the credits left, entry by entry. */
export const creditsSummarySchema = fields('Credits summary', {
  credits: fields('Credits', { left: listOf(creditEntrySchema, 'Credits left').optional() }).optional(),
});
export type CreditsSummary = z.infer<typeof creditsSummarySchema>;
