import { PAGE_SIZES } from '@fleetgate/shared/constants';
import { hasPermission } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { routeByName } from '@fleetgate/shared/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { selectedIds } from './hooks/useSearchSelection';
import { isTyping } from './hooks/useSlashHotkey';
import { availableEndpoints, SEARCH_ENDPOINTS } from './registry';
import { countLabel, searchEndpoint } from './search-api';

afterEach(() => vi.unstubAllGlobals());

const role = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)!;
const canOf = (name: string) => (p: Parameters<typeof hasPermission>[1]) =>
  hasPermission(role(name).permissions, p);

describe('global search rules (product §2, §7, §9)', () => {
  it("shows a group's count as '10+' above the limit of 10", () => {
    expect(PAGE_SIZES.search).toBe(10);
    expect(countLabel(0)).toBe('0');
    expect(countLabel(10)).toBe('10');
    expect(countLabel(11)).toBe('10+');
    expect(countLabel(12345)).toBe('10+');
  });

  it('offers each endpoint only to holders of its permission', () => {
    for (const r of DEFAULT_ROLES) {
      const offered = availableEndpoints(canOf(r.name)).map((e) => e.id);
      const expected = SEARCH_ENDPOINTS.filter((e) => r.permissions.includes(e.permission)).map((e) => e.id);
      expect(offered, r.name).toEqual(expected);
    }
    // A guest (read_only) has view_users but not view_companies.
    const guest = availableEndpoints(canOf('read_only')).map((e) => e.id);
    expect(guest).toContain('users');
    expect(guest).not.toContain('companies');
    expect(availableEndpoints(() => false)).toEqual([]);
  });

  it('registers endpoints whose table routes exist and carry the same permission', () => {
    for (const endpoint of SEARCH_ENDPOINTS) {
      expect(routeByName(endpoint.tableRoute).permission).toBe(endpoint.permission);
    }
  });

  it('asks each endpoint with q, limit 10, search-fields and fields, and reads data and meta.total', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return new Response(
        JSON.stringify({ success: true, data: [{ id: 1, name: 'Acme' }], meta: { total: 42 } }),
      );
    });
    const page = await searchEndpoint(SEARCH_ENDPOINTS.find((e) => e.id === 'companies')!, 'acme');
    expect(page).toEqual({ results: [{ id: 1, name: 'Acme' }], total: 42 });
    const url = new URL(urls[0]!, 'http://x');
    expect(url.pathname).toBe('/api/companies');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'acme',
      limit: '10',
      'search-fields': 'name,email',
      fields: 'id,name,status,email,protocol,enabled,color',
    });
  });

  it('names a remote entry by its protocol, says when it is disabled, and links to its page', async () => {
    await initI18n();
    const remote = SEARCH_ENDPOINTS.find((e) => e.id === 'remoteAccess')!;
    expect(remote.subtitle?.({ id: 3, name: 'Router shell', protocol: 'ssh', enabled: true })).toBe('SSH');
    expect(remote.subtitle?.({ id: 3, name: 'Camera', protocol: 'http', enabled: false })).toBe(
      'HTTP · disabled',
    );
    expect(remote.href({ id: 3 }, 'cam')).toBe('/remote/access/3');
  });

  it('remembers chosen endpoints, all of them until the user chooses', () => {
    const all = SEARCH_ENDPOINTS;
    const ids = all.map((e) => e.id);
    expect(selectedIds(null, all)).toEqual(ids);
    expect(selectedIds(['users', 'no-such-endpoint'], all)).toEqual(['users']);
    expect(selectedIds([], all)).toEqual([]);
    expect(selectedIds('garbage', all)).toEqual(ids);
  });

  it("opens with '/' only when the user is not typing", () => {
    const input = document.createElement('input');
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    expect(isTyping(input)).toBe(true);
    expect(isTyping(editable)).toBe(true);
    expect(isTyping(document.createElement('textarea'))).toBe(true);
    expect(isTyping(document.body)).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
