import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOidc, type Oidc } from './oidc';
import { createSecondStep, type SecondStep } from './second-step';

declare module 'fastify' {
  interface FastifyInstance {
    /** Two-step verification (spec §1, §4): the sign-in's second step and the vendor identity service. */
    mfa: { secondStep: SecondStep; oidc: Oidc };
  }
}

export const mfaPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('mfa', { secondStep: createSecondStep(app), oidc: createOidc(app) });
  },
  { name: 'mfa', dependencies: ['mail'] },
);
