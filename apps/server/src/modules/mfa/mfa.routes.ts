import { okBody, okResultSchema } from '@fleetgate/shared/schemas/api';
import {
  authorizationUrlSchema,
  emailConfirmBodySchema,
  emailEnrolmentSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
  totpConfirmBodySchema,
  totpEnrolmentSchema,
} from '@fleetgate/shared/schemas/mfa';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serviceContext } from '../service-context';
import { presentEmailEnrolment, presentMfaStatus } from './mfa.presenter';
import { mfaService } from './mfa.service';

/** E-mails sent per user in 15 minutes: enrolment codes are not a way to flood an inbox. */
const mailLimit = {
  max: 5,
  timeWindow: '15 minutes',
  keyGenerator: (request: FastifyRequest) => `mfa-mail:${request.auth?.principal.id ?? request.ip}`,
};

/**
 * Two-step verification in account settings and on the MFA_MANDATORY notice (product §1, §6):
 * status, TOTP with QR code and recovery codes, e-mail codes, vendor ID, removal. While
 * impersonating, the real actor confirms their password first (423).
 */
export async function mfaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const tags = ['account'];

  r.get(
    '/api/user/mfa',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The user’s two-step verification',
        response: { 200: okBody(mfaStatusSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentMfaStatus(await mfaService.status(ctx(request))),
    }),
  );

  r.post(
    '/api/user/mfa/totp',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Start setting up a code app (TOTP): a secret and its QR code',
        response: { 200: okBody(totpEnrolmentSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await mfaService.startTotp(ctx(request)),
    }),
  );

  r.post(
    '/api/user/mfa/totp/confirm',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Confirm the code app with its first code; answers the recovery codes, once',
        body: totpConfirmBodySchema,
        response: { 200: okBody(recoveryCodesSchema) },
      },
    },
    async (request) => {
      const codes = await mfaService.confirmTotp(ctx(request), request.body.code);
      return {
        success: true as const,
        data: { recovery_codes: codes },
        message: 'Two-step verification enabled successfully',
      };
    },
  );

  r.post(
    '/api/user/mfa/email',
    {
      config: { access: { authenticated: true }, rateLimit: mailLimit },
      schema: {
        tags,
        summary: 'Start e-mail codes: a code goes to the user’s address',
        response: { 200: okBody(emailEnrolmentSchema) },
      },
    },
    async (request) => {
      const challenge = await mfaService.startEmail(ctx(request));
      return {
        success: true as const,
        data: presentEmailEnrolment(challenge),
        message: 'Verification code sent successfully',
      };
    },
  );

  r.post(
    '/api/user/mfa/email/confirm',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Confirm e-mail codes with the code that was sent',
        body: emailConfirmBodySchema,
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await mfaService.confirmEmail(ctx(request), request.body.session_id, request.body.code);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Two-step verification enabled successfully',
      };
    },
  );

  r.post(
    '/api/user/mfa/vendor',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Start linking the vendor identity service: where to sign in',
        response: { 200: okBody(authorizationUrlSchema) },
      },
    },
    async (request, reply) => {
      const url = await mfaService.startVendorLink(ctx(request), (userId) =>
        app.mfa.oidc.start(request, reply, 'link', { userId }),
      );
      return { success: true as const, data: { authorization_url: url } };
    },
  );

  r.post(
    '/api/user/mfa/recovery-codes',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working)',
        response: { 200: okBody(recoveryCodesSchema) },
      },
    },
    async (request) => {
      const codes = await mfaService.regenerateRecoveryCodes(ctx(request));
      return {
        success: true as const,
        data: { recovery_codes: codes },
        message: 'Recovery codes created successfully',
      };
    },
  );

  r.delete(
    '/api/user/mfa',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Turn two-step verification off (needs a fresh password; revokes access tokens)',
        response: { 200: okBody(okResultSchema) },
      },
    },
    async (request) => {
      await mfaService.remove(ctx(request));
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Two-step verification removed successfully',
      };
    },
  );
}
