import {
  IMPERSONATION_MAX_DAYS,
  type ImpersonationAccess,
  type ImpersonationCandidate,
  type ImpersonationLog,
  type ImpersonationRequest,
} from '@fleetgate/shared/schemas/impersonation';
import { iso } from '../account/links';
import type { impersonationRepository } from './impersonation.repository';
import type { RequestInfo } from './impersonation.service';

type LogRow = Awaited<ReturnType<typeof impersonationRepository.listLogs>>['rows'][number];
type CandidateRow = Awaited<ReturnType<typeof impersonationRepository.candidates>>[number];

/** The impersonation access a user granted: until when (null: none), and the most one may grant. */
export function presentAccess(until: Date | null): ImpersonationAccess {
  return { until: iso(until), max_days: IMPERSONATION_MAX_DAYS };
}

/** The request behind a confirmation link, as its page shows it (route impersonation.access). */
export function presentRequest({ found, status }: RequestInfo): ImpersonationRequest {
  return {
    requested_by: found.requestedBy ?? '',
    requested_by_company: found.requestedByCompany,
    user_email: found.userEmail,
    created_at: iso(found.grant.createdAt)!,
    expires_at: iso(found.grant.requestExpiresAt)!,
    status,
    granted_until: status === 'confirmed' ? iso(found.grant.grantedUntil) : null,
    max_days: IMPERSONATION_MAX_DAYS,
  };
}

/** One impersonation: who acted as whom, from when until when (null: still going). */
export function presentLog(row: LogRow): ImpersonationLog {
  return {
    id: row.id,
    actor_user_id: row.actorUserId,
    actor_email: row.actorEmail,
    subject_user_id: row.subjectUserId,
    subject_email: row.subjectEmail,
    subject_company_id: row.subjectCompanyId,
    subject_company_name: row.subjectCompanyName,
    started_at: iso(row.startedAt)!,
    ended_at: iso(row.endedAt),
  };
}

/** A user the caller may impersonate, with the end of the access they granted (null: none). */
export function presentCandidate(row: CandidateRow): ImpersonationCandidate {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    company_id: row.companyId,
    company_name: row.companyName,
    role_title: row.roleTitle,
    granted_until: iso(row.grantedUntil),
  };
}
