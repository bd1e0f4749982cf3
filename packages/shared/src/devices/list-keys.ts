/**
 * The devices list's sort keys and search fields, apart from the list's zod schemas
 * (schemas/devices.ts re-exports them): the console's devices table needs them on its first
 * load, where zod is not loaded (docs/performance.md, Console first load).
 */

/** Sort keys of the devices list; the first group allows keyset paging (non-null columns). */
export const DEVICE_KEYSET_SORTS = ['id', 'name', 'serial', 'mac', 'status', 'created_at'] as const;
export const DEVICE_SORTS = [
  ...DEVICE_KEYSET_SORTS,
  'model',
  'firmware',
  'last_seen_at',
  'company_name',
] as const;
export const DEVICE_SEARCH_FIELDS = ['name', 'serial', 'mac', 'imei'] as const;
