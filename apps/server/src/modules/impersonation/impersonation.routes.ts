import { okBody } from '@fleetgate/shared/schemas/api';
import {
  grantBodySchema,
  grantUntilSchema,
  IMPERSONATION_MAX_DAYS,
  impersonationAccessSchema,
  impersonationCandidateSchema,
  impersonationLogSchema,
  impersonationRequestSchema,
  locationSchema,
} from '@fleetgate/shared/schemas/impersonation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listQuerySchema, pickFields } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { setAuthCookies } from '../../plugins/auth';
import { clientOf, iso, publicBase } from '../account/links';
import { scopeOf } from '../policy/scope';
import { impersonationRepository } from './impersonation.repository';
import { createImpersonationService } from './impersonation.service';

const idParams = z.object({ id: z.coerce.number().int().min(1) });
const tokenBody = z.strictObject({ token: z.string().min(1).max(200) });
const ok = z.object({ ok: z.literal(true) });

/**
 * Impersonation (spec §2 users.impersonation-logs, impersonation.access; §4; §6; §7
 * POST /user/revoke-impersonation-access).
 */
export async function impersonationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createImpersonationService(app);
  const tags = ['impersonation'];

  r.get(
    '/api/user/impersonation-access',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The impersonation access the user granted',
        response: { 200: okBody(impersonationAccessSchema) },
      },
    },
    async (request) => {
      const until = await service.accessOf(requireAuth(request));
      return { success: true as const, data: { until: iso(until), max_days: IMPERSONATION_MAX_DAYS } };
    },
  );

  r.post(
    '/api/user/impersonation-access',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: `Grant impersonation access until a time (at most ${IMPERSONATION_MAX_DAYS} days ahead)`,
        body: grantBodySchema,
        response: { 200: okBody(impersonationAccessSchema) },
      },
    },
    async (request) => {
      const until = await service.grant(requireAuth(request), request.body.until, request.ip);
      return {
        success: true as const,
        data: { until: until.toISOString(), max_days: IMPERSONATION_MAX_DAYS },
        message: 'Impersonation access granted successfully',
      };
    },
  );

  r.post(
    '/api/user/revoke-impersonation-access',
    {
      config: { access: { authenticated: true } },
      schema: { tags, summary: 'Revoke impersonation access (spec §7)', response: { 200: okBody(ok) } },
    },
    async (request) => {
      await service.revoke(requireAuth(request), request.ip);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Impersonation access revoked successfully',
      };
    },
  );

  r.post(
    '/api/users/:id/impersonation-access-request',
    {
      config: { access: { permission: 'impersonate_users' } },
      schema: {
        tags,
        summary: 'Ask a user for impersonation access: they confirm by the e-mailed link',
        params: idParams,
        response: { 200: okBody(ok) },
      },
    },
    async (request) => {
      await service.request(requireAuth(request), request.params.id, publicBase(app, request), request.ip);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Impersonation access request sent successfully',
      };
    },
  );

  r.post(
    '/api/impersonation/requests/lookup',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The request behind a confirmation link (route impersonation.access)',
        body: tokenBody,
        response: { 200: okBody(impersonationRequestSchema) },
      },
    },
    async (request) => {
      const { found, status } = await service.requestInfo(requireAuth(request), request.body.token);
      return {
        success: true as const,
        data: {
          requested_by: found.requestedBy ?? '',
          requested_by_company: found.requestedByCompany,
          user_email: found.userEmail,
          created_at: iso(found.grant.createdAt)!,
          expires_at: iso(found.grant.requestExpiresAt)!,
          status,
          granted_until: status === 'confirmed' ? iso(found.grant.grantedUntil) : null,
          max_days: IMPERSONATION_MAX_DAYS,
        },
      };
    },
  );

  r.post(
    '/api/impersonation/requests/confirm',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Confirm an admin’s request, choosing until when the access lasts',
        body: tokenBody.extend({ until: grantUntilSchema }),
        response: { 200: okBody(impersonationAccessSchema) },
      },
    },
    async (request) => {
      const until = await service.answer(
        requireAuth(request),
        request.body.token,
        request.body.until,
        request.ip,
      );
      return {
        success: true as const,
        data: { until: iso(until), max_days: IMPERSONATION_MAX_DAYS },
        message: 'Impersonation access granted successfully',
      };
    },
  );

  r.post(
    '/api/impersonation/requests/decline',
    {
      config: { access: { authenticated: true } },
      schema: { tags, summary: 'Decline an admin’s request', body: tokenBody, response: { 200: okBody(ok) } },
    },
    async (request) => {
      await service.answer(requireAuth(request), request.body.token, null, request.ip);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Impersonation request declined successfully',
      };
    },
  );

  r.post(
    '/api/users/:id/impersonate',
    {
      config: { access: { permission: 'impersonate_users' } },
      schema: {
        tags,
        summary: 'Start impersonating a user who granted access (a new session; the actor is kept)',
        params: idParams,
        response: { 200: okBody(locationSchema) },
      },
    },
    async (request, reply) => {
      const tokens = await service.start(requireAuth(request), request.params.id, clientOf(request));
      setAuthCookies(request, reply, tokens, app.config.publicUrl);
      return { success: true as const, data: { location: '/' } };
    },
  );

  r.post(
    '/api/impersonation/cancel',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Cancel impersonation: back to the actor’s own session (spec §4)',
        response: { 200: okBody(locationSchema) },
      },
    },
    async (request, reply) => {
      const tokens = await service.cancel(requireAuth(request), clientOf(request));
      setAuthCookies(request, reply, tokens, app.config.publicUrl);
      return { success: true as const, data: { location: '/' } };
    },
  );

  r.get(
    '/api/impersonation/logs',
    {
      config: { access: { permission: 'view_impersonation_logs' } },
      schema: {
        tags,
        summary: 'Impersonation logs of the users the caller reaches: actor, subject, start, end',
        querystring: listQuerySchema,
        response: { 200: okBody(z.array(impersonationLogSchema.partial())) },
      },
    },
    async (request) => {
      const { rows, total, fields } = await impersonationRepository.listLogs(
        app.db,
        scopeOf(requireAuth(request)),
        request.query,
        new Date(),
      );
      const data = rows.map((row) => ({
        id: row.id,
        actor_user_id: row.actorUserId,
        actor_email: row.actorEmail,
        subject_user_id: row.subjectUserId,
        subject_email: row.subjectEmail,
        subject_company_id: row.subjectCompanyId,
        subject_company_name: row.subjectCompanyName,
        started_at: iso(row.startedAt)!,
        ended_at: iso(row.endedAt),
      }));
      return { success: true as const, data: pickFields(data, fields), meta: { total } };
    },
  );

  r.get(
    '/api/impersonation/candidates',
    {
      config: { access: { permission: 'impersonate_users' } },
      schema: {
        tags,
        summary: 'Users the caller may impersonate or ask for access (strictly below their company)',
        querystring: z.object({
          q: z.string().trim().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: { 200: okBody(z.array(impersonationCandidateSchema)) },
      },
    },
    async (request) => {
      const rows = await service.candidates(requireAuth(request), request.query.q, request.query.limit);
      return {
        success: true as const,
        data: rows.map((row) => ({
          id: row.id,
          email: row.email,
          username: row.username,
          company_id: row.companyId,
          company_name: row.companyName,
          role_title: row.roleTitle,
          granted_until: iso(row.grantedUntil),
        })),
      };
    },
  );
}
