import { z } from 'zod';

/** A user grants impersonation access for at most this many days ahead. */
export const IMPERSONATION_MAX_DAYS = 30;
/** An admin's request for access waits this long for the user's answer. */
export const IMPERSONATION_REQUEST_DAYS = 7;

/** A future instant within IMPERSONATION_MAX_DAYS (checked against the clock by the server). */
export const grantUntilSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time' });

/** POST /user/impersonation-access, POST /impersonation/requests/:token/confirm. */
export const grantBodySchema = z.strictObject({ until: grantUntilSchema });

/** The user's own impersonation access (account settings). */
export const impersonationAccessSchema = z.object({
  /** The end of the active grant (spec §3 impersonation_access_limit), or null. */
  until: z.string().nullable(),
  max_days: z.number().int(),
});

/** An admin's request, as the confirmation page shows it (route impersonation.access). */
export const impersonationRequestSchema = z.object({
  requested_by: z.string(),
  requested_by_company: z.string().nullable(),
  user_email: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(['pending', 'confirmed', 'declined', 'expired']),
  granted_until: z.string().nullable(),
  max_days: z.number().int(),
});
export type ImpersonationRequest = z.infer<typeof impersonationRequestSchema>;

/** One row of users.impersonation-logs: actor, subject, start, end (spec §2). */
export const impersonationLogSchema = z.object({
  id: z.number().int(),
  actor_user_id: z.number().int().nullable(),
  actor_email: z.string(),
  subject_user_id: z.number().int().nullable(),
  subject_email: z.string(),
  subject_company_id: z.number().int().nullable(),
  subject_company_name: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
});
export type ImpersonationLog = z.infer<typeof impersonationLogSchema>;

/** A user the caller may impersonate or ask access from. */
export const impersonationCandidateSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  role_title: z.string(),
  /** The end of the user's grant; null when the user has not granted access. */
  granted_until: z.string().nullable(),
});
export type ImpersonationCandidate = z.infer<typeof impersonationCandidateSchema>;

export const locationSchema = z.object({ location: z.string() });
