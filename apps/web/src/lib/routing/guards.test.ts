import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { routeByName } from '@fleetgate/shared/routes';
import { describe, expect, it } from 'vitest';
import { canEnter, firstPermittedPath, resolveRedirect } from './guards';

const role = (name: string) => [...DEFAULT_ROLES.find((r) => r.name === name)!.permissions];
const access = (permissions: string[], disabledRoutes: string[] = []) => ({ permissions, disabledRoutes });

describe('route guard (product §5)', () => {
  it('enters a route only with its permission', () => {
    expect(canEnter(routeByName('users.companies'), access(role('admin')))).toBe(true);
    expect(canEnter(routeByName('users.companies'), access(role('read_only')))).toBe(false);
    expect(canEnter(routeByName('mail.logs'), access(role('admin')))).toBe(false);
    expect(canEnter(routeByName('mail.logs'), access(role('super_admin')))).toBe(true);
  });

  it('refuses routes the brand disables, and the tabs under them', () => {
    const a = access(role('super_admin'), ['remote.access', 'company.info']);
    expect(canEnter(routeByName('remote.access'), a)).toBe(false);
    expect(canEnter(routeByName('remote.info'), a)).toBe(false);
    expect(canEnter(routeByName('company.invitations'), a)).toBe(false);
    expect(canEnter(routeByName('users.companies'), a)).toBe(true);
  });

  it('lets anyone reach /404', () => expect(canEnter(routeByName('notfound'), access([]))).toBe(true));

  it('sends users to the devices list first, else to the first page they may see, else nowhere', () => {
    expect(firstPermittedPath(access(role('read_only')))).toBe('/management/devices');
    expect(firstPermittedPath(access(['view_tags']))).toBe('/tags');
    expect(firstPermittedPath(access(role('admin'), ['management.devices']))).toBe('/management/hotspots');
    expect(firstPermittedPath(access([]))).toBeNull();
  });

  it('redirects to the target tab, or to the first tab the user may enter', () => {
    expect(resolveRedirect(routeByName('company.info'), access(role('admin')))?.name).toBe('company.devices');
    expect(
      resolveRedirect(routeByName('administration.resources'), access(['view_credit_transfer_codes']))?.name,
    ).toBe('services.credit-codes');
    expect(resolveRedirect(routeByName('reports'), access(role('admin')))?.name).toBe('reports.single');
    expect(resolveRedirect(routeByName('device.info'), access(role('read_only')))?.name).toBe(
      'device.activity',
    );
  });
});
