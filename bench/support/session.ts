import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './server';

export type SignedIn = {
  /** A GET through `app.inject` as the signed-in user: routing, auth, policy, schema, serializer. */
  get(url: string): Promise<LightMyRequestResponse>;
};

/** Signs in as the seeded super admin the way the console does, keeping the session cookies. */
export async function signInAsAdmin(app: FastifyInstance): Promise<SignedIn> {
  const headers = { 'x-requested-with': 'XMLHttpRequest' };
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers,
    payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
  const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
  return {
    async get(url) {
      const response = await app.inject({ method: 'GET', url, headers, cookies });
      if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
      return response;
    },
  };
}
