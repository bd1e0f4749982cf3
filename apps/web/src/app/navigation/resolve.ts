import { hasPermission } from '@fleetgate/shared/permissions';
import { type RouteName, routeByName } from '@fleetgate/shared/routes';
import { type Access, canEnter } from '#src/lib/routing/guards';
import type { NavChild, NavGroup } from './nav-config';

export type VisibleChild = NavChild & { resolvedName: string; resolvedRoute: RouteName };
export type VisibleGroup = Omit<NavGroup, 'children'> & { children: VisibleChild[] };

/**
 * The entries a user sees (product §2 Navigation): a route map shows the first permission
 * held, which decides name and route; an entry is shown only if its route may be
 * entered (permission held, not disabled by the brand); empty groups are hidden.
 */
export function visibleNavigation(groups: readonly NavGroup[], access: Access): VisibleGroup[] {
  const result: VisibleGroup[] = [];
  for (const group of groups) {
    const children: VisibleChild[] = [];
    for (const child of group.children) {
      const mapped = child.routeMap
        ? child.routeMap.find((item) => hasPermission(access.permissions, item.permission))
        : { name: child.name, routeName: child.routeName };
      if (!mapped) continue;
      if (!canEnter(routeByName(mapped.routeName), access)) continue;
      children.push({ ...child, resolvedName: mapped.name, resolvedRoute: mapped.routeName });
    }
    if (children.length) result.push({ ...group, children });
  }
  return result;
}

export type ActiveState = {
  routeName: RouteName | '';
  matchedNames: readonly RouteName[];
  params: Record<string, string | undefined>;
};

/**
 * A child is active when its route name is the current one, or its highlighted names
 * match the current or matched routes, or for form routes the params name matches.
 */
export function isActive(child: VisibleChild, state: ActiveState): boolean {
  if (state.routeName === 'form')
    return child.params?.form_name !== undefined && child.params.form_name === state.params.form_name;
  if (child.resolvedRoute === state.routeName) return true;
  const names = [state.routeName, ...state.matchedNames];
  return (
    (child.highlighted ?? []).some((name) => names.includes(name)) || names.includes(child.resolvedRoute)
  );
}
