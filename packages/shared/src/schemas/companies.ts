import { z } from 'zod';
import {
  COMPANY_NAME_MIN,
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  INVISIBLE_NAME_MESSAGE,
  NAME_MAX,
} from '../limits';
import { body, flag, text } from './messages';

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

/** Company flags dialog (product §2 'manage company flags'). */
export const companyFlagsBodySchema = body({
  show_payment: flag('Show payment information').optional(),
  mfa_mandatory: flag('Require two-step verification').optional(),
});

/** The message of product §5 for an edit that changes nothing. */
export const UNCHANGED_VALUE_MESSAGE = 'Please input different value to save changes';
