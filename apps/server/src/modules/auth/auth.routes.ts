import { AUTH_BASE } from '@fleetgate/shared/constants';
import { okBody } from '@fleetgate/shared/schemas/api';
import {
  currentUserSchema,
  passwordConfirmationBodySchema,
  passwordConfirmedSchema,
  revokeBodySchema,
  revokeResultSchema,
  sessionInfoSchema,
} from '@fleetgate/shared/schemas/auth';
import { loginWithSecondStepSchema } from '@fleetgate/shared/schemas/mfa';
import { safeContinueUrl } from '@fleetgate/shared/url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, unauthorized } from '#src/http/errors';
import { requireAuth } from '#src/plugins/access';
import {
  type AuthContext,
  checkXsrf,
  clearAuthCookies,
  refreshCookie,
  setAuthCookies,
} from '#src/plugins/auth';
import { accountService } from '../account/account.service';
import { clientOf, LOGIN_PAGE } from '../account/links';
import { impersonationService } from '../impersonation/impersonation.service';
import { mfaService } from '../mfa/mfa.service';
import { publicContext, serviceContext } from '../service-context';
import { presentCurrentUser } from './user.presenter';

const JSON_UTF8 = 'application/json; charset=utf-8';

/** The written answers of GET /api/user, by kept caller (dropped with it). */
const userAnswers = new WeakMap<AuthContext, { json: Buffer; limit: Date | null }>();

/** Sends an answer already written by the route's own serializer. */
const sendWritten = (reply: FastifyReply, json: Buffer) => reply.type(JSON_UTF8).send(json);

/** Sign-in, token refresh and revoke, the current user, password confirmation (product §7 Session). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { authService, config } = app;

  r.post(
    `${AUTH_BASE}/login`,
    {
      config: {
        access: { public: true },
        rateLimit: {
          max: config.loginRateLimit,
          timeWindow: '15 minutes',
          keyGenerator: (request: FastifyRequest) => {
            const body = request.body as { email?: unknown } | undefined;
            const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
            return `${request.ip}|${email}`;
          },
        },
      },
      schema: {
        tags: ['session'],
        summary:
          'Sign in with e-mail and password; a user with two-step verification gets MFA_REQUIRED, then resends with session_code',
        body: loginWithSecondStepSchema,
        response: { 200: okBody(sessionInfoSchema) },
      },
    },
    async (request, reply) => {
      const ctx = publicContext(app, request);
      const client = clientOf(request);
      const { email } = request.body;
      const { id } = await authService.checkCredentials(email, request.body.password, client, {
        unlockToken: request.body.unlock_token,
        onLock: (_userId, token) => {
          // Not awaited: how long a message takes must not tell whether the address has an account.
          void accountService
            .sendLockNotice(ctx, email, token)
            .catch((error: unknown) => request.log.warn({ err: error }, 'account lock notice failed'));
        },
      });
      // product §4 second step: MFA_REQUIRED with the session ids; the client resends with the code.
      const method = await mfaService.secondStepOfSignIn(ctx, id, request.body, (challengeId) =>
        app.mfa.oidc.start(request, reply, 'mfa', { userId: id, challengeId }),
      );
      const tokens = await authService.completeLogin(id, client, method);
      setAuthCookies(request, reply, tokens, config.publicUrl);
      return { success: true as const, data: { exp: Math.floor(tokens.accessExpiresAt.getTime() / 1000) } };
    },
  );

  r.post(
    `${AUTH_BASE}/token/refresh`,
    {
      config: { access: { public: true } },
      schema: {
        tags: ['session'],
        summary: 'Rotate the refresh token and issue a new session cookie',
        response: { 200: okBody(sessionInfoSchema) },
      },
    },
    async (request, reply) => {
      const presented = refreshCookie(request, config.publicUrl);
      if (!presented) throw unauthorized('Session expired. Please sign in again.');
      try {
        const tokens = await authService.refresh(
          presented,
          (session) => checkXsrf(request, session),
          clientOf(request),
        );
        setAuthCookies(request, reply, tokens, config.publicUrl);
        return { success: true as const, data: { exp: Math.floor(tokens.accessExpiresAt.getTime() / 1000) } };
      } catch (error) {
        // A dead session leaves nothing worth keeping in the browser.
        if (error instanceof AppError && error.status === 401)
          clearAuthCookies(request, reply, config.publicUrl);
        throw error;
      }
    },
  );

  r.post(
    `${AUTH_BASE}/token/revoke`,
    {
      config: { access: { public: true } },
      schema: {
        tags: ['session'],
        summary: 'Sign out: revoke the session and answer where to go next',
        body: revokeBodySchema,
        response: { 200: okBody(revokeResultSchema) },
      },
    },
    async (request, reply) => {
      if (request.auth) {
        await authService.revoke(request.auth.session, clientOf(request));
        // The session's open sockets end with it.
        app.realtime.disconnectSession(request.auth.session.id);
      }
      clearAuthCookies(request, reply, config.publicUrl);
      const origin = `${request.protocol}://${request.host}`;
      const location = safeContinueUrl(request.body?.redirect_uri, origin) ?? LOGIN_PAGE;
      return { success: true as const, data: { location } };
    },
  );

  r.get(
    '/api/user',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user',
        response: { 200: okBody(currentUserSchema) },
      },
    },
    async (request, reply) => {
      // The answer is its caller's alone, and the caller is kept in memory until anything
      // it carries changes (caller-cache.ts): so it is written once per kept caller, not on
      // every page load. A grant of impersonation access that runs out meanwhile rewrites it.
      const caller = requireAuth(request);
      const kept = userAnswers.get(caller);
      if (kept && kept.limit === impersonationService.accessOf({ caller })) {
        return sendWritten(reply, kept.json);
      }
      const ctx = serviceContext(app, request);
      const { impersonationLimit } = await accountService.currentUser(ctx);
      const answer = {
        success: true as const,
        data: presentCurrentUser(ctx.caller, impersonationLimit, authService.idleMinutes),
      };
      const json = Buffer.from(reply.serialize(answer) as string);
      userAnswers.set(caller, { json, limit: impersonationLimit });
      return sendWritten(reply, json);
    },
  );

  r.post(
    '/api/password-confirmation',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags: ['session'],
        summary: 'Confirm the password before a sensitive action (answers a 423)',
        body: passwordConfirmationBodySchema,
        response: { 200: okBody(passwordConfirmedSchema) },
      },
    },
    async (request) => {
      await authService.confirmPassword(requireAuth(request).session, request.body.password);
      return { success: true as const, data: { confirmed: true as const } };
    },
  );
}
