// @vitest-environment node
import { BRAND_DEFAULTS } from '@fleetgate/shared/brand';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { userStorage } from '#src/lib/storage/user-storage';
import { testUser } from '#src/test/users';
import { deviceKeys } from '../api/devices';
import { PAGE_SIZE_KEY, pageQuery, pageSizeOf, prefetchFirstPage } from './first-page';
import { readFilters, readSort } from './url-state';

const asked: { path: string; query: unknown }[] = [];
vi.mock('#src/lib/http/client', async (original) => ({
  ...(await original<object>()),
  api: {
    get: async (path: string, options: { query: unknown }) => {
      asked.push({ path, query: options.query });
      return { data: [{ id: 1, name: 'Depot 01' }], meta: { total: 1 } };
    },
  },
}));

const admin = testUser('admin');

beforeEach(() => {
  asked.length = 0;
  vi.spyOn(userStorage, 'get').mockImplementation(((key: string, fallback: unknown) =>
    key === PAGE_SIZE_KEY ? 50 : fallback) as typeof userStorage.get);
});

describe("the devices table's first page, asked for ahead of the table (product §2)", () => {
  it('is the request the table makes for the address and the stored page size, answered into its cache', async () => {
    const client = new QueryClient();
    const search = '?status=1&model=RUT240&sort=-last_seen_at&q=depot';
    prefetchFirstPage(client, { user: admin, brand: BRAND_DEFAULTS, search });
    // The key the table reads on its first page (DevicesPage builds it with the same pageQuery).
    const address = new URLSearchParams(search);
    const key = deviceKeys.list(pageQuery(readFilters(address), readSort(address), pageSizeOf(50), 0));
    await vi.waitFor(() => expect(client.getQueryData(key)).toBeTruthy());
    expect(asked).toEqual([
      {
        path: '/devices',
        query: expect.objectContaining({ q: 'depot', sort: '-last_seen_at', limit: 50, offset: 0 }),
      },
    ]);
  });

  it('asks nothing for a user who may not see devices, or when the brand turned the page off', () => {
    const client = new QueryClient();
    const guestWithoutDevices = testUser('admin', { permissions: ['view_users'] });
    prefetchFirstPage(client, { user: guestWithoutDevices, brand: BRAND_DEFAULTS, search: '' });
    prefetchFirstPage(client, {
      user: admin,
      brand: { ...BRAND_DEFAULTS, disabled_routes: ['management.devices'] },
      search: '',
    });
    expect(asked).toEqual([]);
  });

  it('a stored page size the table does not offer falls back to its first', () => {
    expect(pageSizeOf(50)).toBe(50);
    expect(pageSizeOf(7)).toBe(25);
    expect(pageSizeOf('50')).toBe(25);
    expect(pageSizeOf(undefined)).toBe(25);
  });
});
