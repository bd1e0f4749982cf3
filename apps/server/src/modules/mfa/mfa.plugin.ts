import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOidc, type Oidc } from './oidc';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Two-step verification (product §1, §4): the vendor identity service, one per server
     * since it keeps the issuer's discovered configuration. The second step itself is
     * second-step.ts, used through the services.
     */
    mfa: { oidc: Oidc };
  }
}

export const mfaPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('mfa', { oidc: createOidc(app) });
  },
  { name: 'mfa', dependencies: ['mail'] },
);
