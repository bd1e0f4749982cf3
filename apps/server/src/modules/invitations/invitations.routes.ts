import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  acceptInvitationBodySchema,
  invitationAcceptedSchema,
  invitationListQuerySchema,
  invitationPreviewSchema,
  invitationSchema,
  invitationSentSchema,
  inviteDistributorBodySchema,
  inviteUserBodySchema,
} from '@fleetgate/shared/schemas/invitations';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { publicContext, serviceContext } from '../service-context';
import { presentInvitationPreview, presentSentInvitation } from './invitations.presenter';
import { invitationsService } from './invitations.service';

/** Any text up to a bound: a malformed token gets the same 404 as an unknown one. */
const tokenParams = z.object({ token: z.string().min(1).max(200) });

/** Invitations (product §2 users.invitations, §3 newUser, inviteNewCompany) and the public accept page's calls. */
export async function invitationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  // The public calls are limited like sign-in (modules/auth/auth.routes.ts): token guessing is throttled.
  const publicAccess = {
    access: { public: true as const },
    rateLimit: {
      max: app.config.loginRateLimit,
      timeWindow: '15 minutes',
      keyGenerator: (request: FastifyRequest) => request.ip,
    },
  };

  r.post(
    '/api/users/invite',
    {
      config: { access: { permission: 'manage_users' } },
      schema: {
        tags: ['invitations'],
        summary: 'Invite a user to a company with a role (product §3 newUser)',
        body: inviteUserBodySchema,
        response: { 200: okBody(invitationSentSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      ...presentSentInvitation(await invitationsService.invite(ctx(request), request.body), 'created'),
    }),
  );

  r.post(
    '/api/distributors/invitations',
    {
      config: { access: { permission: 'manage_companies' } },
      schema: {
        tags: ['invitations'],
        summary: 'Invite a distributor to found a company under yours (product §3 inviteNewCompany)',
        body: inviteDistributorBodySchema,
        response: { 200: okBody(invitationSentSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      ...presentSentInvitation(
        await invitationsService.inviteDistributor(ctx(request), request.body),
        'created',
      ),
    }),
  );

  r.get(
    '/api/invitations',
    {
      config: { access: { permission: 'view_user_invitations' } },
      schema: {
        tags: ['invitations'],
        summary: 'Invitations of the companies in reach',
        querystring: invitationListQuerySchema,
        response: { 200: okBody(z.array(invitationSchema)) },
      },
    },
    async (request) => {
      const { company_id, status, kind, ...query } = request.query;
      const { rows, total } = await invitationsService.list(ctx(request), query, {
        ...(company_id ? { companyId: company_id } : {}),
        ...(status ? { status } : {}),
        ...(kind ? { kind } : {}),
      });
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.post(
    '/api/invitations/:id/resend',
    {
      config: { access: { permission: 'manage_users' } },
      schema: {
        tags: ['invitations'],
        summary: 'Send a new link (the old one stops working) with a new expiry',
        params: idParams,
        response: { 200: okBody(invitationSentSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      ...presentSentInvitation(await invitationsService.resend(ctx(request), request.params.id), 'resent'),
    }),
  );

  r.delete(
    '/api/invitations/:id',
    {
      config: { access: { permission: 'manage_users' } },
      schema: {
        tags: ['invitations'],
        summary: 'Revoke an invitation: its link stops working',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await invitationsService.revoke(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Invitation revoked successfully',
      };
    },
  );

  r.get(
    '/api/invitations/by-token/:token',
    {
      config: publicAccess,
      schema: {
        tags: ['invitations'],
        summary: 'What an invitation link offers (the accept page)',
        params: tokenParams,
        response: { 200: okBody(invitationPreviewSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentInvitationPreview(
        await invitationsService.preview(publicContext(app, request), request.params.token),
      ),
    }),
  );

  r.post(
    '/api/invitations/by-token/:token/accept',
    {
      config: publicAccess,
      schema: {
        tags: ['invitations'],
        summary: 'Accept an invitation: set a password (and name a new company for a distributor)',
        params: tokenParams,
        body: acceptInvitationBodySchema,
        response: { 200: okBody(invitationAcceptedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await invitationsService.accept(publicContext(app, request), request.params.token, request.body),
      message: 'Invitation accepted. You can sign in now.',
    }),
  );
}
