import type { BrandSettings } from '@fleetgate/shared/brand';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import type { QueryClient } from '@tanstack/react-query';
import { userStorage } from '#src/lib/storage/user-storage';
import { deviceListOptions } from '../api/devices';
import type { DeviceFilters, DeviceListQuery } from '../api/types';
import { TABLE_PAGE_SIZES } from '../utils/constants';
import { readFilters, readSort } from './url-state';

/** The devices table's page size, one of TABLE_PAGE_SIZES, in the user's storage (product §4). */
export const PAGE_SIZE_KEY = 'table.devices.page_size';

/** The stored page size when the table offers it, else the first it offers. */
export function pageSizeOf(stored: unknown): number {
  return (TABLE_PAGE_SIZES as readonly unknown[]).includes(stored) ? (stored as number) : TABLE_PAGE_SIZES[0];
}

/** The list request of one page of a view: the table's and the one asked ahead are the same. */
export function pageQuery(
  filters: DeviceFilters,
  sort: string,
  pageSize: number,
  page: number,
  cursor?: string,
): DeviceListQuery {
  return { ...filters, sort, limit: pageSize, offset: page * pageSize, cursor };
}

/**
 * The devices table is the default first page (product §2). When the console opens on it,
 * main.tsx asks for its first page of rows as soon as the session and the user's storage
 * are known, beside the console's code, instead of after the page has drawn: the table
 * then finds the answer in the cache, or on its way. Nothing is asked for a user who may
 * not see devices, or a brand that turned the page off.
 */
export function prefetchFirstPage(
  client: QueryClient,
  { user, brand, search }: { user: CurrentUser; brand: BrandSettings; search: string },
): void {
  if (!user.permissions.includes('view_devices') || brand.disabled_routes.includes('management.devices'))
    return;
  const address = new URLSearchParams(search);
  const pageSize = pageSizeOf(userStorage.get<unknown>(PAGE_SIZE_KEY, undefined));
  void client.prefetchQuery(
    deviceListOptions(pageQuery(readFilters(address), readSort(address), pageSize, 0)),
  );
}
