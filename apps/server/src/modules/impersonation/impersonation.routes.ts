import { okBody, okResultSchema } from '@fleetgate/shared/schemas/api';
import {
  grantBodySchema,
  grantUntilSchema,
  IMPERSONATION_MAX_DAYS,
  impersonationAccessSchema,
  impersonationCandidateSchema,
  impersonationCandidatesQuerySchema,
  impersonationLogSchema,
  impersonationRequestSchema,
  locationSchema,
} from '@fleetgate/shared/schemas/impersonation';
import { listQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickFields } from '#src/http/list-query';
import { setAuthCookies } from '#src/plugins/auth';
import { idParams } from '../../http/params';
import { clientOf } from '../account/links';
import { serviceContext } from '../service-context';
import { presentAccess, presentCandidate, presentLog, presentRequest } from './impersonation.presenter';
import { impersonationService } from './impersonation.service';

const tokenBody = z.strictObject({ token: z.string().min(1).max(200) });

/**
 * Impersonation (product §2 users.impersonation-logs, impersonation.access; §4; §6; §7
 * POST /user/revoke-impersonation-access).
 */
export async function impersonationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
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
    async (request) => ({
      success: true as const,
      data: presentAccess(await impersonationService.accessOf(ctx(request))),
    }),
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
    async (request) => ({
      success: true as const,
      data: presentAccess(await impersonationService.grant(ctx(request), request.body.until)),
      message: 'Impersonation access granted successfully',
    }),
  );

  r.post(
    '/api/user/revoke-impersonation-access',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Revoke impersonation access (product §7)',
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await impersonationService.revoke(ctx(request));
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
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await impersonationService.request(ctx(request), request.params.id);
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
    async (request) => ({
      success: true as const,
      data: presentRequest(await impersonationService.requestInfo(ctx(request), request.body.token)),
    }),
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
      const { token, until } = request.body;
      return {
        success: true as const,
        data: presentAccess(await impersonationService.answer(ctx(request), token, until)),
        message: 'Impersonation access granted successfully',
      };
    },
  );

  r.post(
    '/api/impersonation/requests/decline',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Decline an admin’s request',
        body: tokenBody,
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await impersonationService.answer(ctx(request), request.body.token, null);
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
      const tokens = await impersonationService.start(
        ctx(request),
        request.params.id,
        clientOf(request),
        app.authService,
      );
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
        summary: 'Cancel impersonation: back to the actor’s own session (product §4)',
        response: { 200: okBody(locationSchema) },
      },
    },
    async (request, reply) => {
      const tokens = await impersonationService.cancel(ctx(request), clientOf(request), app.authService);
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
      const { rows, total, fields } = await impersonationService.logs(ctx(request), request.query);
      return { success: true as const, data: pickFields(rows.map(presentLog), fields), meta: { total } };
    },
  );

  r.get(
    '/api/impersonation/candidates',
    {
      config: { access: { permission: 'impersonate_users' } },
      schema: {
        tags,
        summary: 'Users the caller may impersonate or ask for access (strictly below their company)',
        querystring: impersonationCandidatesQuerySchema,
        response: { 200: okBody(z.array(impersonationCandidateSchema)) },
      },
    },
    async (request) => {
      const rows = await impersonationService.candidates(ctx(request), request.query.q, request.query.limit);
      return { success: true as const, data: rows.map(presentCandidate) };
    },
  );
}
