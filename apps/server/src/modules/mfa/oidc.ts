import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '#src/config';
import { AppError, badRequest } from '#src/http/errors';

/** What an identity-service sign-in is for. */
export type OidcPurpose = 'signin' | 'link' | 'mfa';

/** Kept in the browser between start and callback, sealed with the installation key. */
export type OidcFlow = {
  state: string;
  nonce: string;
  verifier: string;
  purpose: OidcPurpose;
  /** link: the signed-in user; mfa: the user of the password step. */
  userId?: number;
  /** mfa: the challenge this sign-in answers. */
  challengeId?: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
};

export type OidcIdentity = { issuer: string; subject: string; email: string | null; emailVerified: boolean };

export const OIDC_COOKIE = 'fg_oidc';
const COOKIE_PATH = '/api/auth/oidc';
const FLOW_TTL_MS = 10 * 60_000;
const SEAL_CONTEXT = 'oidc-flow';

export const oidcUnavailable = () =>
  AppError.of(404, 'NOT_FOUND', 'Sign-in with the vendor identity service is not configured');

/** Whether sign-in with the vendor identity service is offered (OIDC_ISSUER and OIDC_CLIENT_ID set), and its name. */
export function oidcOffer(config: Pick<Config, 'oidc'>): { enabled: boolean; name: string } {
  return { enabled: config.oidc !== null, name: config.oidc?.name ?? 'Vendor ID' };
}

/**
 * The vendor identity service over OpenID Connect (product §1), with openid-client:
 * authorisation code flow with PKCE, state and nonce. The issuer is discovered once.
 */
export function createOidc(app: FastifyInstance) {
  const settings = app.config.oidc;
  let discovered: Promise<oidc.Configuration> | null = null;

  function configuration(): Promise<oidc.Configuration> {
    if (!settings) throw oidcUnavailable();
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        {
          // Plain http only for an http issuer (a test or a lab); production issuers are https.
          execute: settings.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        },
      )
      .catch((error: unknown) => {
        discovered = null;
        app.log.warn({ err: error }, 'OpenID Connect discovery failed');
        throw AppError.of(502, 'INTERNAL_ERROR', 'The vendor identity service cannot be reached');
      });
    return discovered;
  }

  function redirectUri(request: FastifyRequest): string {
    if (settings?.redirectUri) return settings.redirectUri;
    const base = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
    return `${base.replace(/\/$/, '')}/account/oidc/callback`;
  }

  function cookieOptions(request: FastifyRequest) {
    const secure = app.config.publicUrl
      ? app.config.publicUrl.startsWith('https:')
      : request.protocol === 'https';
    return { httpOnly: true, secure, sameSite: 'lax' as const, path: COOKIE_PATH };
  }

  return {
    ...oidcOffer(app.config),

    /** Starts a sign-in at the identity service; the flow rides in a sealed cookie. */
    async start(
      request: FastifyRequest,
      reply: FastifyReply,
      purpose: OidcPurpose,
      extra: Pick<OidcFlow, 'userId' | 'challengeId'> = {},
    ): Promise<{ url: string; state: string }> {
      const config = await configuration();
      const flow: OidcFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        purpose,
        ...extra,
        expiresAt: Date.now() + FLOW_TTL_MS,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(request),
        scope: 'openid email profile',
        response_type: 'code',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
      });
      reply.setCookie(OIDC_COOKIE, app.secrets.encrypt(JSON.stringify(flow), SEAL_CONTEXT), {
        ...cookieOptions(request),
        maxAge: FLOW_TTL_MS / 1000,
      });
      return { url: url.href, state: flow.state };
    },

    /** The flow this browser started, if it is still fresh. */
    flowOf(request: FastifyRequest): OidcFlow | undefined {
      const sealed = request.cookies[OIDC_COOKIE];
      if (!sealed) return undefined;
      try {
        const flow = JSON.parse(app.secrets.decrypt(sealed, SEAL_CONTEXT)) as OidcFlow;
        return flow.expiresAt > Date.now() ? flow : undefined;
      } catch {
        return undefined;
      }
    },

    clear(request: FastifyRequest, reply: FastifyReply): void {
      reply.clearCookie(OIDC_COOKIE, cookieOptions(request));
    },

    /**
     * Finishes the flow with the query the service sent the browser back with: checks
     * state, PKCE and nonce, redeems the code, and answers who signed in.
     */
    async finish(request: FastifyRequest, flow: OidcFlow, search: string): Promise<OidcIdentity> {
      const config = await configuration();
      const query = search.startsWith('?') ? search : `?${search}`;
      const current = new URL(`${redirectUri(request)}${query}`);
      const denied = current.searchParams.get('error');
      if (denied) {
        throw badRequest(`The vendor identity service refused the sign-in (${denied.slice(0, 100)})`);
      }
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, current, {
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          pkceCodeVerifier: flow.verifier,
          idTokenExpected: true,
        });
      } catch (error) {
        request.log.warn({ err: error }, 'OpenID Connect code exchange failed');
        throw badRequest('The vendor ID sign-in could not be completed. Please try again.');
      }
      const claims = tokens.claims();
      if (!claims) throw badRequest('The vendor identity service sent no identity');
      let profile: Record<string, unknown> = claims;
      // Providers keep the scope claims (e-mail) out of the ID token: ask the userinfo endpoint.
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        try {
          profile = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
        } catch (error) {
          request.log.warn({ err: error }, 'OpenID Connect userinfo failed');
        }
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof profile.email === 'string' ? profile.email.toLowerCase() : null,
        emailVerified: profile.email_verified === true,
      };
    },
  };
}

export type Oidc = ReturnType<typeof createOidc>;
