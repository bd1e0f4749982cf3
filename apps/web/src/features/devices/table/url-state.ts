import type { DeviceFilters } from '../api/types';

/** The table's filters and sort live in the address, so a view can be shared and 'View in table' lands on it. */

const list = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);
const numbers = (value: string | null) =>
  list(value)
    .map(Number)
    .filter((n) => Number.isInteger(n));

export function readFilters(search: URLSearchParams): DeviceFilters {
  return {
    q: search.get('q') ?? '',
    status: numbers(search.get('status')),
    model: list(search.get('model')),
    company_id: numbers(search.get('company_id')),
    firmware: list(search.get('firmware')),
    tag_id: numbers(search.get('tag_id')),
  };
}

/** The address parameters for filters and sort; empty ones are left out. */
export function writeFilters(search: URLSearchParams, filters: DeviceFilters, sort: string): URLSearchParams {
  const next = new URLSearchParams(search);
  const set = (key: string, value: string) => (value ? next.set(key, value) : next.delete(key));
  set('q', filters.q.trim());
  set('status', filters.status.join(','));
  set('model', filters.model.join(','));
  set('company_id', filters.company_id.join(','));
  set('firmware', filters.firmware.join(','));
  set('tag_id', filters.tag_id.join(','));
  set('sort', sort === 'name' ? '' : sort);
  return next;
}
