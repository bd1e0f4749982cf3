import { z } from 'zod';
import {
  COMPANY_NAME_MIN,
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  INVISIBLE_NAME_MESSAGE,
  NAME_MAX,
} from '../limits';
import { okBody } from './api';
import { commaIntList, idFilter, listQuerySchema } from './list';
import { body, fields, flag, instant, listOf, oneOf, text, typeMessage, whole } from './messages';

/** A company name (product §5): at least 3 characters, none of the forbidden or invisible characters. */
export const companyNameSchema = text('Company name')
  .trim()
  .min(COMPANY_NAME_MIN, `Company name must be at least ${COMPANY_NAME_MIN} characters`)
  .max(NAME_MAX, `Company name must be at most ${NAME_MAX} characters`)
  .refine(hasNoForbiddenChars, 'Company name contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int()
    .min(1, `${label} is required`);

/** newCompany (product §3): POST /companies. */
export const newCompanyBodySchema = body({
  name: companyNameSchema,
  parent_id: id('Parent company'),
});

/** Edit company: the name only; an unchanged name is refused by the server (product §5). */
export const editCompanyBodySchema = body({ name: companyNameSchema });

/** moveCompany (product §3): POST /companies/move. */
export const moveCompanyBodySchema = body({
  source: id('Company to move'),
  target: id('New parent company'),
});

/** product §3 Company payment_type: how the company is supplied with resources. */
export const COMPANY_PAYMENT_TYPES = ['paid', 'free'] as const;
export type CompanyPaymentType = (typeof COMPANY_PAYMENT_TYPES)[number];
const paymentTypeSchema = oneOf(COMPANY_PAYMENT_TYPES, 'Payment type');

/** Company flags dialog (product §2 'manage company flags'); the payment type is the super admin's. */
export const companyFlagsBodySchema = body({
  show_payment: flag('Show payment information').optional(),
  mfa_mandatory: flag('Require two-step verification').optional(),
  payment_type: paymentTypeSchema.optional(),
});
export type CompanyFlagsBody = z.infer<typeof companyFlagsBodySchema>;

/** The message of product §5 for an edit that changes nothing. */
export const UNCHANGED_VALUE_MESSAGE = 'Please input different value to save changes';

/** GET /companies: the list parameters, companies of these levels, children of one parent. */
export const companyListQuerySchema = listQuerySchema.extend({
  level: commaIntList.optional(),
  parent_id: idFilter('Parent company').optional(),
});
export type CompanyListQuery = z.infer<typeof companyListQuerySchema>;

/** A company as GET /companies and /companies/{id} answer (product §3 Company plus counts and flags). */
export const companySchema = fields('Company', {
  id: whole('Id'),
  name: text('Name'),
  parent_id: whole('Parent company id').nullable(),
  parent_name: text('Parent company').nullable(),
  level: whole('Level'),
  created_at: instant('Created at'),
  users_count: whole('User count'),
  devices_count: whole('Device count'),
  children_count: whole('Subsidiary count'),
  show_payment: flag('Show payment information'),
  mfa_mandatory: flag('Require two-step verification'),
  payment_type: paymentTypeSchema,
  /** product §3 Company: credits and management packs held, and company data left in bytes. */
  credits_left: whole('Credits left'),
  packs_left: whole('Packs left'),
  remaining_data: whole('Remaining data'),
});
export type Company = z.infer<typeof companySchema>;

/**
 * A node of the tree page (product §2 company.tree): a company with its subsidiaries. A plain
 * `z.object` (with the words `fields` gives) because a recursive schema's type is only inferred
 * through zod's own function.
 */
export const companyTreeNodeSchema = z
  .object(
    {
      id: whole('Id'),
      name: text('Name'),
      level: whole('Level'),
      parent_id: whole('Parent company id').nullable(),
      users_count: whole('User count'),
      get children(): z.ZodArray<typeof companyTreeNodeSchema> {
        return listOf(companyTreeNodeSchema, 'Subsidiaries');
      },
    },
    { error: typeMessage('Company', 'an object') },
    // Named, so that the API description holds it once, under this name, for its own children.
  )
  .meta({ id: 'CompanyTreeNode' });
export type CompanyTreeNode = z.infer<typeof companyTreeNodeSchema>;

/** The body of GET /companies/tree: the roots, and whether the tree was cut at its bound. */
export const companyTreeBodySchema = okBody(listOf(companyTreeNodeSchema, 'Companies')).extend({
  meta: fields('Meta', { truncated: flag('Truncated') }),
});

/** What a create or a rename answers: the company's place in the tree. */
export const companyPlaceSchema = fields('Company', {
  id: whole('Id'),
  name: text('Name'),
  parent_id: whole('Parent company id').nullable(),
  level: whole('Level'),
});
export type CompanyPlace = z.infer<typeof companyPlaceSchema>;

/** What setting a subsidiary's flags answers. */
export const companyFlagsSchema = fields('Company flags', {
  id: whole('Id'),
  show_payment: flag('Show payment information'),
  mfa_mandatory: flag('Require two-step verification'),
  payment_type: paymentTypeSchema,
});
export type CompanyFlags = z.infer<typeof companyFlagsSchema>;

/** What a move answers: the company's new parent and level. */
export const companyMovedSchema = fields('Company', {
  id: whole('Id'),
  parent_id: whole('Parent company id'),
  level: whole('Level'),
});
export type CompanyMoved = z.infer<typeof companyMovedSchema>;
