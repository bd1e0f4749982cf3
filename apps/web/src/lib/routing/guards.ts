import { hasPermission } from '@fleetgate/shared/permissions';
import { findRoute, pathOf, ROUTES, type RouteDef } from '@fleetgate/shared/routes';

export type Access = { permissions: readonly string[]; disabledRoutes: readonly string[] };

/** A route disabled by the brand, directly or through the route it belongs to (product §2, §5). */
export function isDisabledByBrand(route: RouteDef, disabled: readonly string[]): boolean {
  for (let r: RouteDef | undefined = route; r; r = r.parent ? findRoute(r.parent) : undefined) {
    if (disabled.includes(r.name)) return true;
  }
  return false;
}

/** May the user enter this route (product §5 route guard)? */
export function canEnter(route: RouteDef, access: Access): boolean {
  if (route.public) return true;
  if (isDisabledByBrand(route, access.disabledRoutes)) return false;
  return route.permission === undefined || hasPermission(access.permissions, route.permission);
}

/**
 * The first page the user may see: the first permission-gated route of the table
 * (management.devices for most) without parameters. Null means nothing is viewable:
 * the 'Access denied' page.
 */
export function firstPermittedPath(access: Access): string | null {
  for (const route of ROUTES) {
    if (!route.path || route.path.includes(':') || route.permission === undefined || route.standalone)
      continue;
    if (canEnter(route, access)) return pathOf(route.name);
  }
  return null;
}

/**
 * Where a redirecting route leads (company.info → devices tab, ...): its target, or the
 * first of its tabs the user may enter, so that a user without the target's permission
 * never loops back to the first page.
 */
export function resolveRedirect(route: RouteDef, access: Access): RouteDef | null {
  if (!route.redirect) return null;
  const target = findRoute(route.redirect);
  if (target && canEnter(target, access)) return target;
  return ROUTES.find((r) => r.parent === route.name && r.tab && r.path && canEnter(r, access)) ?? null;
}
