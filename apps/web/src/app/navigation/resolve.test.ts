import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { type RouteName, routeChain } from '@fleetgate/shared/routes';
import { describe, expect, it } from 'vitest';
import { NAV_GROUPS } from './nav-config';
import { isActive, visibleNavigation } from './resolve';

const role = (name: string) => [...DEFAULT_ROLES.find((r) => r.name === name)!.permissions];
const nav = (permissions: string[], disabledRoutes: string[] = []) =>
  visibleNavigation(NAV_GROUPS, { permissions, disabledRoutes });
const groupNames = (groups: ReturnType<typeof nav>) => groups.map((g) => g.name);

describe('navigation (product §2 Navigation)', () => {
  it('shows the super admin every group, the admin all but System', () => {
    expect(groupNames(nav(role('super_admin')))).toEqual([
      'nav.group.management',
      'nav.group.connect',
      'nav.group.vpn',
      'nav.group.administration',
      'nav.group.system',
    ]);
    expect(groupNames(nav(role('admin')))).not.toContain('nav.group.system');
  });

  it('shows an entry only with its permission, and hides a group left empty', () => {
    const guest = nav(role('read_only'));
    const admin = guest.find((g) => g.name === 'nav.group.administration');
    expect(admin?.children.map((c) => c.resolvedRoute)).toEqual(['users.table']);
    expect(groupNames(nav(['view_devices']))).toEqual(['nav.group.management']);
  });

  it('takes name and route of a route map from the first permission held', () => {
    const files = (permissions: string[]) =>
      nav(permissions)
        .flatMap((g) => g.children)
        .find((c) => c.name === 'nav.files');
    expect(files(['view_files', 'view_images'])).toMatchObject({
      resolvedName: 'nav.files',
      resolvedRoute: 'management.files',
    });
    expect(files(['view_images'])).toMatchObject({
      resolvedName: 'nav.images',
      resolvedRoute: 'images.table',
    });
    expect(files(['view_devices'])).toBeUndefined();
  });

  it('hides entries whose route the brand disables', () => {
    const connect = nav(role('super_admin'), ['remote.access']).find((g) => g.name === 'nav.group.connect');
    expect(connect?.children.map((c) => c.resolvedRoute)).toEqual(['service.connect-history']);
  });

  it('marks an entry active on its route, on its highlighted routes, and on routes beneath it', () => {
    const [management] = nav(role('super_admin'));
    const devices = management!.children.find((c) => c.resolvedRoute === 'management.devices')!;
    const reports = management!.children.find((c) => c.resolvedRoute === 'reports')!;
    const state = (name: RouteName) => ({
      routeName: name,
      matchedNames: routeChain(name).map((r) => r.name),
      params: {},
    });
    expect(isActive(devices, state('management.devices'))).toBe(true);
    expect(isActive(devices, state('device.metrics.gps'))).toBe(true);
    expect(isActive(reports, state('reports.periodic.week'))).toBe(true);
    expect(isActive(devices, state('reports.single'))).toBe(false);
  });
});
