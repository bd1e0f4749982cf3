import { AUTH_BASE } from '@fleetgate/shared/constants';
import {
  activationVerifyBodySchema,
  contactBodySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  profileSchema,
  tosBodySchema,
  tosResultSchema,
} from '@fleetgate/shared/schemas/account';
import { emailResultSchema, okBody, okResultSchema } from '@fleetgate/shared/schemas/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicContext, serviceContext } from '../service-context';
import { presentProfile } from './account.presenter';
import { accountService } from './account.service';

/** Confirmation mails per user in 15 minutes. */
const resendLimit = {
  max: 3,
  timeWindow: '15 minutes',
  keyGenerator: (request: FastifyRequest) => `activation:${request.auth?.principal.id ?? request.ip}`,
};

/**
 * The user's own account (account settings; product §4 terms and e-mail modal; §7 PUT
 * /account/user and POST {auth}/user/activation/resend).
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const tags = ['account'];

  r.get(
    '/api/user/profile',
    {
      config: { access: { authenticated: true } },
      schema: { tags, summary: 'The user’s profile', response: { 200: okBody(profileSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: presentProfile(await accountService.profile(ctx(request))),
    }),
  );

  r.put(
    '/api/user/profile',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Change username, avatar URL or country (nothing else: other fields are refused)',
        body: profileBodySchema,
        response: { 200: okBody(profileSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentProfile(await accountService.updateProfile(ctx(request), request.body)),
      message: 'Profile updated successfully',
    }),
  );

  r.put(
    '/api/user/password',
    {
      config: { access: { authenticated: true }, rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Change the password (the current one is needed); other sessions end',
        body: passwordChangeBodySchema,
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await accountService.changePassword(ctx(request), request.body);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Password changed successfully',
      };
    },
  );

  r.put(
    '/api/user/contact',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The “Please enter your email address” modal: address and a username that is not it',
        body: contactBodySchema,
        response: { 200: okBody(profileSchema) },
      },
    },
    async (request) => {
      const { profile, emailChanged } = await accountService.setContact(ctx(request), request.body);
      return {
        success: true as const,
        data: presentProfile(profile),
        message: emailChanged ? 'Email confirmation sent successfully' : 'Profile updated successfully',
      };
    },
  );

  r.put(
    '/api/account/user',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Accept the terms of service / data agreement (product §7 PUT /account/user)',
        body: tosBodySchema,
        response: { 200: okBody(tosResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { tos_accepted: await accountService.setTerms(ctx(request), request.body.tos_accepted) },
    }),
  );

  r.post(
    `${AUTH_BASE}/user/activation/resend`,
    {
      config: { access: { authenticated: true }, rateLimit: resendLimit },
      schema: {
        tags: ['session'],
        summary: 'Send the e-mail confirmation link again (product §7 Session)',
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await accountService.resendActivation(ctx(request));
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Email confirmation sent successfully',
      };
    },
  );

  r.post(
    `${AUTH_BASE}/user/activation/verify`,
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags: ['session'],
        summary: 'Confirm the e-mail address with the link’s token',
        body: activationVerifyBodySchema,
        response: { 200: okBody(emailResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { email: await accountService.verifyEmail(publicContext(app, request), request.body.token) },
      message: 'Email address confirmed successfully',
    }),
  );
}
