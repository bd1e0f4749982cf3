import { z } from 'zod';
import { listQuerySchema } from './list';
import { body, fields, oneOf, text, whole } from './messages';

/** A user grants impersonation access for at most this many days ahead. */
export const IMPERSONATION_MAX_DAYS = 30;
/** An admin's request for access waits this long for the user's answer. */
export const IMPERSONATION_REQUEST_DAYS = 7;

/** A future instant within IMPERSONATION_MAX_DAYS (checked against the clock by the server). */
export const grantUntilSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time' });

/** POST /user/impersonation-access, POST /impersonation/requests/:token/confirm. */
export const grantBodySchema = body({ until: grantUntilSchema });

/** The user's own impersonation access (account settings). */
export const impersonationAccessSchema = fields('Impersonation access', {
  /** The end of the active grant (product §3 impersonation_access_limit), or null. */
  until: text('Until').nullable(),
  max_days: whole('Maximum days'),
});
export type ImpersonationAccess = z.infer<typeof impersonationAccessSchema>;

/** An admin's request, as the confirmation page shows it (route impersonation.access). */
export const impersonationRequestSchema = fields('Impersonation request', {
  requested_by: text('Requested by'),
  requested_by_company: text('Company of the requester').nullable(),
  user_email: text('User email'),
  created_at: text('Created at'),
  expires_at: text('Expires at'),
  status: oneOf(['pending', 'confirmed', 'declined', 'expired'], 'Status'),
  granted_until: text('Granted until').nullable(),
  max_days: whole('Maximum days'),
});
export type ImpersonationRequest = z.infer<typeof impersonationRequestSchema>;

/** One row of users.impersonation-logs: actor, subject, start, end (product §2). */
export const impersonationLogSchema = fields('Impersonation log', {
  id: whole('Id'),
  actor_user_id: whole('Actor id').nullable(),
  actor_email: text('Actor email'),
  subject_user_id: whole('User id').nullable(),
  subject_email: text('User email'),
  subject_company_id: whole('Company id').nullable(),
  subject_company_name: text('Company name').nullable(),
  started_at: text('Started at'),
  ended_at: text('Ended at').nullable(),
});
export type ImpersonationLog = z.infer<typeof impersonationLogSchema>;

/** A user the caller may impersonate or ask access from. */
export const impersonationCandidateSchema = fields('User', {
  id: whole('Id'),
  email: text('Email'),
  username: text('Username'),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  role_title: text('Role title'),
  /** The end of the user's grant; null when the user has not granted access. */
  granted_until: text('Granted until').nullable(),
});
export type ImpersonationCandidate = z.infer<typeof impersonationCandidateSchema>;

export const locationSchema = fields('Result', { location: text('Location') });
export type LocationResult = z.infer<typeof locationSchema>;

/** GET /impersonation/candidates: a search and how many. */
export const impersonationCandidatesQuerySchema = listQuerySchema.pick({ q: true, limit: true });
