import { hasPermission, type Permission } from '@fleetgate/shared/permissions';
import { scopesReaching } from '@fleetgate/shared/scopes';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../http/errors';
import { requireRecentConfirmation } from '../modules/auth/recent-confirmation';
import { type SensitiveAction, sensitiveActionOf } from '../modules/auth/sensitive-actions';
import type { AuthContext } from './auth';

/**
 * Every /api route declares who may call it (CONVENTIONS §4):
 * - `{ public: true }`: anyone (sign-in, health);
 * - `{ authenticated: true }`: any signed-in user, further checks in the service;
 * - `{ permission }`: a signed-in user holding the permission (any of a list, or all with mode 'all').
 */
export type RouteAccess =
  | {
      public: true;
      /**
       * A file the browser fetches by itself (an <img>, the tab's icon), which carries no
       * X-Requested-With: answered to anyone, with no caller, on GET only.
       */
      loadedByBrowser?: true;
    }
  | { authenticated: true }
  | { permission: Permission | readonly Permission[]; mode?: 'any' | 'all' };

export type RouteEntry = {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** The status codes the route's `response` schema describes. */
  responses: string[];
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route registered, with its access rule and answers: walked by the route-guard and contract tests. */
    routeCatalog: RouteEntry[];
  }
}

/** The signed-in caller, or a 401. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

function guardFor(access: RouteAccess) {
  if ('public' in access) return undefined;
  // Callback style: a check that waits for nothing needs no promise.
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const auth = requireAuth(request);
    if (
      'permission' in access &&
      !hasPermission(auth.principal.permissions, access.permission, access.mode)
    ) {
      throw auth.token ? forbidden(tokenRefusal([access.permission].flat())) : forbidden();
    }
    done();
  };
}

/**
 * Why a personal access token is refused a route: the scopes that reach it, so that a
 * script's author knows which token to make (the user's own rights still apply).
 */
function tokenRefusal(permissions: readonly Permission[]): string {
  const scopes = scopesReaching(permissions);
  return scopes.length
    ? `This token's scopes do not allow this: it needs ${scopes.join(' or ')}, and its user the right to do it`
    : 'No personal access token can do this: it is done in the console';
}

/** The 423 step-up of a sensitive action (modules/auth/sensitive-actions.ts). */
function stepUpFor(action: SensitiveAction) {
  return async (request: FastifyRequest) => {
    const auth = requireAuth(request);
    if (action.stepUp === 'impersonating' && !auth.actor) return;
    if (action.when && !action.when(request.body, auth)) return;
    requireRecentConfirmation(request);
  };
}

export const accessPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('routeCatalog', [] as RouteEntry[]);
    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const responses = Object.keys((route.schema?.response as object | undefined) ?? {});
      for (const method of methods) app.routeCatalog.push({ method, url: route.url, access, responses });
      if (!access) {
        if (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs')) {
          throw new Error(`Route ${methods.join(',')} ${route.url} declares no access rule`);
        }
        return;
      }
      const action = sensitiveActionOf(methods[0] ?? '', route.url);
      if (action) {
        // preHandler: after the body is read, since some rules depend on it.
        const existing = route.preHandler ? [route.preHandler].flat() : [];
        route.preHandler = [...existing, stepUpFor(action)];
      }
      const guard = guardFor(access);
      if (!guard) return;
      // onRequest, after the auth plugin resolved the caller and before the body is parsed:
      // a caller without the right learns nothing about the route's schema (401/403 first).
      const existing = route.onRequest
        ? Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest]
        : [];
      route.onRequest = [...existing, guard];
    });
  },
  { name: 'access' },
);
