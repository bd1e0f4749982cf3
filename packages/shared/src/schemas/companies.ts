import { z } from 'zod';
import {
  COMPANY_NAME_MIN,
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  INVISIBLE_NAME_MESSAGE,
  NAME_MAX,
} from '../limits';

/** A company name (spec §5): at least 3 characters, none of the forbidden or invisible characters. */
export const companyNameSchema = z
  .string()
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

/** newCompany (spec §3): POST /companies. */
export const newCompanyBodySchema = z.strictObject({
  name: companyNameSchema,
  parent_id: id('Parent company'),
});

/** Edit company: the name only; an unchanged name is refused by the server (spec §5). */
export const editCompanyBodySchema = z.strictObject({ name: companyNameSchema });

/** moveCompany (spec §3): POST /companies/move. */
export const moveCompanyBodySchema = z.strictObject({
  source: id('Company to move'),
  target: id('New parent company'),
});

/** Company flags dialog (spec §2 'manage company flags'). */
export const companyFlagsBodySchema = z.strictObject({
  show_payment: z.boolean().optional(),
  mfa_mandatory: z.boolean().optional(),
});

/** The message of spec §5 for an edit that changes nothing. */
export const UNCHANGED_VALUE_MESSAGE = 'Please input different value to save changes';
