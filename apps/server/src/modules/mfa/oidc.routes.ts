import { okBody } from '@fleetgate/shared/schemas/api';
import {
  authorizationUrlSchema,
  MFA_MAX_ATTEMPTS,
  oidcCallbackBodySchema,
  oidcCallbackResultSchema,
  oidcInfoSchema,
} from '@fleetgate/shared/schemas/mfa';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, badRequest, forbidden, unauthorized } from '../../http/errors';
import { setAuthCookies } from '../../plugins/auth';
import { clientOf } from '../account/links';
import { mfaRepository } from './mfa.repository';
import { createMfaService } from './mfa.service';
import { type OidcFlow, type OidcIdentity, oidcUnavailable } from './oidc';

const SETTINGS_PAGE = '/account/settings/security';

/** spec §6: an identity-service user nobody invited gets the NOT_INVITED_EXTERNAL_USER notice. */
const notInvited = (email: string | null) =>
  new AppError(
    403,
    [
      {
        code: 'NOT_INVITED_EXTERNAL_USER',
        message: `No user account is linked to this vendor ID${email ? ` (${email})` : ''}. Ask your administrator for an invitation.`,
      },
    ],
    { email },
  );

/**
 * Sign-in with the vendor identity service, and vendor ID as a second step (spec §1):
 * start (authorisation URL), callback (the console's /account/oidc/callback page posts the
 * query it was sent back with).
 */
export async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { oidc, secondStep } = app.mfa;
  const mfa = createMfaService(app);
  const tags = ['session'];

  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number, method: string) {
    const tokens = await app.authService.completeLogin(userId, clientOf(request), method);
    setAuthCookies(request, reply, tokens, app.config.publicUrl);
    oidc.clear(request, reply);
  }

  /** Who a vendor sign-in is: the linked user, else an invited user with that verified address. */
  async function userOf(identity: OidcIdentity): Promise<number | undefined> {
    const linked = await mfaRepository.identityUser(app.db, identity.issuer, identity.subject);
    if (linked !== undefined) return linked;
    if (!identity.email || !identity.emailVerified) return undefined;
    const user = await mfaRepository.invitedUserByEmail(app.db, identity.email);
    if (!user || (await mfaRepository.hasIdentity(app.db, user.id, identity.issuer))) return undefined;
    await mfaRepository.link(app.db, user.id, identity.issuer, identity.subject);
    return user.id;
  }

  async function finishSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    flow: OidcFlow,
    identity: OidcIdentity,
  ) {
    const userId = await userOf(identity);
    if (userId === undefined) {
      oidc.clear(request, reply);
      throw notInvited(identity.email);
    }
    const user = await mfaRepository.userForMfa(app.db, userId);
    if (!user) throw notInvited(identity.email);
    // A code-app or e-mail second step still applies; the browser keeps the flow cookie
    // and resends this call with the code.
    if (user.mfaType === 'totp' || user.mfaType === 'email') {
      await secondStep.requireForLogin(user, {}, { purpose: 'oidc-login', oidcState: flow.state });
    }
    await signIn(request, reply, user.id, 'vendor');
  }

  async function finishSecondStep(
    request: FastifyRequest,
    reply: FastifyReply,
    flow: OidcFlow,
    identity: OidcIdentity,
  ) {
    const challenge = flow.challengeId ? await mfaRepository.challenge(app.db, flow.challengeId) : undefined;
    const now = new Date();
    if (
      !challenge ||
      challenge.userId !== flow.userId ||
      challenge.method !== 'vendor' ||
      challenge.oidcState !== flow.state ||
      challenge.usedAt !== null ||
      challenge.expiresAt <= now
    ) {
      throw unauthorized('The verification has expired. Please sign in again.');
    }
    const owner = await mfaRepository.identityUser(app.db, identity.issuer, identity.subject);
    if (owner !== challenge.userId) {
      await mfaRepository.takeAttempt(app.db, challenge.id, now, MFA_MAX_ATTEMPTS);
      throw forbidden('This vendor ID is not the one linked to your account');
    }
    if (!(await mfaRepository.useChallenge(app.db, challenge.id, now))) {
      throw unauthorized('The verification has expired. Please sign in again.');
    }
    await signIn(request, reply, challenge.userId, 'password+vendor');
  }

  r.get(
    '/api/auth/oidc',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Whether sign-in with the vendor identity service is offered',
        response: { 200: okBody(oidcInfoSchema) },
      },
    },
    async () => ({ success: true as const, data: { enabled: oidc.enabled, name: oidc.name } }),
  );

  r.post(
    '/api/auth/oidc/start',
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Start signing in with the vendor identity service',
        response: { 200: okBody(authorizationUrlSchema) },
      },
    },
    async (request, reply) => {
      if (!oidc.enabled) throw oidcUnavailable();
      const { url } = await oidc.start(request, reply, 'signin');
      return { success: true as const, data: { authorization_url: url } };
    },
  );

  r.post(
    '/api/auth/oidc/callback',
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Finish a vendor identity service sign-in with the query it sent back',
        body: oidcCallbackBodySchema,
        response: { 200: okBody(oidcCallbackResultSchema) },
      },
    },
    async (request, reply) => {
      if (!oidc.enabled) throw oidcUnavailable();
      const flow = oidc.flowOf(request);
      if (!flow) {
        throw badRequest('The sign-in took too long or was started in another browser. Please try again.');
      }
      const { search, ...second } = request.body;
      // The second step after a vendor sign-in: the identity was checked the first time.
      if (flow.purpose === 'signin' && second.session_code !== undefined) {
        const id = second.session_id ?? second.session_uuid;
        const challenge = id ? await mfaRepository.challenge(app.db, id) : undefined;
        const user = challenge ? await mfaRepository.userForMfa(app.db, challenge.userId) : undefined;
        if (!user) throw unauthorized('The verification has expired. Please sign in again.');
        await secondStep.requireForLogin(user, second, { purpose: 'oidc-login', oidcState: flow.state });
        await signIn(request, reply, user.id, 'vendor');
        return { success: true as const, data: { location: '/', purpose: flow.purpose } };
      }
      const identity = await oidc.finish(request, flow, search);
      if (flow.purpose === 'link') {
        const auth = request.auth;
        if (!auth || auth.actor || auth.principal.id !== flow.userId) {
          throw unauthorized('Sign in as the user who started linking the vendor ID');
        }
        await mfa.linkVendor(auth, identity, request.ip);
        oidc.clear(request, reply);
        return { success: true as const, data: { location: SETTINGS_PAGE, purpose: flow.purpose } };
      }
      if (flow.purpose === 'mfa') await finishSecondStep(request, reply, flow, identity);
      else await finishSignIn(request, reply, flow, identity);
      return { success: true as const, data: { location: '/', purpose: flow.purpose } };
    },
  );
}
