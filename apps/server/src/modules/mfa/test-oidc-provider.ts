import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a random port, for the
 * vendor identity service tests. Its sign-in screen is replaced by a switch the test sets:
 * who signs in next, or a refusal.
 */
export type TestIdentityProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or changes an account (subject → claims). */
  account(sub: string, claims: { email?: string; email_verified?: boolean }): void;
  /**
   * Follows an authorisation URL as a browser would, signing in as `sub` (or refusing),
   * and answers the query the provider sends back to the redirect URI.
   */
  signIn(authorizationUrl: string, sub: string | 'deny'): Promise<string>;
  close(): Promise<void>;
};

export async function startTestIdentityProvider(redirectUri: string): Promise<TestIdentityProvider> {
  const accounts = new Map<string, { email?: string; email_verified?: boolean }>();
  const clientId = 'fleetgate-console';
  const clientSecret = 'test-client-secret-0123456789';
  let nextLogin: string | 'deny' = 'deny';
  let provider: Provider | undefined;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) {
      void interact(provider, req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const claims = accounts.get(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['fleetgate-test-provider-key'] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
  });

  async function interact(p: Provider, req: IncomingMessage, res: ServerResponse) {
    const details = await p.interactionDetails(req, res);
    if (nextLogin === 'deny') {
      await p.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user said no' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new p.Grant({ accountId: nextLogin, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await p.interactionFinished(
      req,
      res,
      { login: { accountId: nextLogin }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    issuer,
    clientId,
    clientSecret,
    account(sub, claims) {
      accounts.set(sub, claims);
    },
    async signIn(authorizationUrl, sub) {
      nextLogin = sub;
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 15; hop++) {
        if (url.startsWith(redirectUri)) return new URL(url).search;
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = pair!.indexOf('=');
          jar.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (!location)
          throw new Error(`identity provider stopped at ${url}: ${response.status} ${await response.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('identity provider redirected too often');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
