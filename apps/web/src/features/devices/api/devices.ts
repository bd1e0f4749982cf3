import { PAGE_SIZES } from '@fleetgate/shared/constants';
import { DEVICE_SEARCH_FIELDS } from '@fleetgate/shared/devices/list-keys';
import type { IdResult, Json } from '@fleetgate/shared/schemas/api';
import type { Company } from '@fleetgate/shared/schemas/companies';
import type { bulkActionBody, DeviceModelCount } from '@fleetgate/shared/schemas/devices';
import type { TagJson } from '@fleetgate/shared/schemas/tags';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type Query } from '#src/lib/http/client';
import type {
  BulkResult,
  ChartPoint,
  DailyUsage,
  DeviceCommand,
  DeviceDetail,
  DeviceEvent,
  DeviceFilters,
  DeviceItem,
  DeviceListPage,
  DeviceListQuery,
  DeviceMetrics,
} from './types';

/** Query keys of the devices feature (CONVENTIONS example 9). */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: () => [...deviceKeys.all, 'list'] as const,
  list: (query: DeviceListQuery) => [...deviceKeys.lists(), query] as const,
  models: () => [...deviceKeys.all, 'models'] as const,
  companies: () => [...deviceKeys.all, 'companies'] as const,
  tags: () => [...deviceKeys.all, 'tags'] as const,
  options: (q: string) => [...deviceKeys.all, 'options', q] as const,
  detail: (id: number) => [...deviceKeys.all, 'detail', id] as const,
  telemetry: (id: number, rangeSeconds: number, bucket: number | null) =>
    [...deviceKeys.detail(id), 'telemetry', rangeSeconds, bucket] as const,
  metrics: (id: number) => [...deviceKeys.detail(id), 'metrics'] as const,
  dailyUsage: (id: number, days: number, tz: string) =>
    [...deviceKeys.detail(id), 'daily-usage', days, tz] as const,
  events: (id: number, page: number) => [...deviceKeys.detail(id), 'events', page] as const,
  commands: (id: number, page: number) => [...deviceKeys.detail(id), 'commands', page] as const,
};

/** The list parameters of the API for the table's filters (comma-joined by the client, product §7). */
export function filterQuery(filters: DeviceFilters): Query {
  return {
    q: filters.q.trim() || undefined,
    'search-fields': filters.q.trim() ? DEVICE_SEARCH_FIELDS : undefined,
    status: filters.status,
    model: filters.model,
    company_id: filters.company_id,
    firmware: filters.firmware,
    tag_id: filters.tag_id,
  };
}

/** One page of devices: one request per page change (keyset cursor when the sort allows). */
export function useDeviceList(query: DeviceListQuery) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: async (): Promise<DeviceListPage> => {
      const response = await api.get<DeviceItem[]>('/devices', {
        query: {
          ...filterQuery(query),
          sort: query.sort,
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : { offset: query.offset }),
        },
      });
      const meta = response.meta ?? {};
      return {
        rows: response.data,
        total: Number(meta.total ?? response.data.length),
        totalCapped: meta.total_capped === true,
        nextCursor: typeof meta.next_cursor === 'string' ? meta.next_cursor : null,
      };
    },
    placeholderData: keepPreviousData,
  });
}

/** Models in scope with counts (the model filter's options, product §7 `/devices/statistics`). */
export function useModelOptions(enabled = true) {
  return useQuery({
    queryKey: deviceKeys.models(),
    queryFn: async () => (await api.get<DeviceModelCount[]>('/devices/statistics')).data,
    enabled,
    staleTime: 60_000,
  });
}

/**
 * The companies selector (product §7 selector lists: limit 100 and a fields filter), as a
 * query's options: a window that needs the list once asks the cache for it when it opens.
 */
export const companyOptionsQuery = () => ({
  queryKey: deviceKeys.companies(),
  queryFn: async () =>
    (
      await api.get<Pick<Json<Company>, 'id' | 'name'>[]>('/companies', {
        query: { limit: 100, fields: ['id', 'name'], sort: 'name' },
      })
    ).data,
  staleTime: 60_000,
});

export function useCompanyOptions(enabled: boolean) {
  return useQuery({ ...companyOptionsQuery(), enabled });
}

/** The tags selector (product §7 selector lists: GET /tags with limit 100 and a fields filter). */
export function useTagOptions(enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.tags(),
    queryFn: async () =>
      (
        await api.get<Pick<TagJson, 'id' | 'name' | 'color'>[]>('/tags', {
          query: { limit: 100, fields: ['id', 'name', 'color'], sort: 'name' },
        })
      ).data,
    enabled,
    staleTime: 60_000,
  });
}

/** A device as a selector offers it: enough to tell two routers of the same name apart. */
export type DeviceOption = Pick<DeviceItem, 'id' | 'name' | 'serial'>;

/**
 * The devices selector (product §7 selector lists: GET /devices with limit 100 and a fields
 * filter), searched on the server by name, serial, MAC or IMEI.
 */
export function useDeviceOptions(q: string, enabled = true) {
  const search = q.trim();
  return useQuery({
    queryKey: deviceKeys.options(search),
    queryFn: async () =>
      (
        await api.get<DeviceOption[]>('/devices', {
          query: {
            fields: ['id', 'name', 'serial'],
            limit: PAGE_SIZES.selector,
            sort: 'name',
            q: search || undefined,
            'search-fields': search ? DEVICE_SEARCH_FIELDS : undefined,
          },
        })
      ).data,
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useDevice(id: number) {
  return useQuery({
    queryKey: deviceKeys.detail(id),
    queryFn: async () => (await api.get<DeviceDetail>(`/devices/${id}`)).data,
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useDeviceMetrics(id: number, refreshMs: number | false = false, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.metrics(id),
    queryFn: async () => (await api.get<DeviceMetrics>(`/devices/${id}/metrics`)).data,
    refetchInterval: refreshMs,
    enabled,
  });
}

/** Mobile data used per calendar day of the user's zone (the data-usage tab). */
export function useDailyUsage(id: number, days: number, tz: string, refreshMs: number | false) {
  return useQuery({
    queryKey: deviceKeys.dailyUsage(id, days, tz),
    queryFn: async () =>
      (
        await api.get<DailyUsage[]>(`/devices/${id}/data-usage`, {
          query: { days, tz },
        })
      ).data,
    refetchInterval: refreshMs,
  });
}

/** Chart points of the last `rangeSeconds`, raw or averaged per bucket; read again every `refreshMs`. */
export function useTelemetry(
  id: number,
  rangeSeconds: number,
  bucket: number | null,
  refreshMs: number | false,
) {
  return useQuery({
    queryKey: deviceKeys.telemetry(id, rangeSeconds, bucket),
    queryFn: async () => {
      const from = new Date(Date.now() - rangeSeconds * 1000).toISOString();
      return (
        await api.get<ChartPoint[]>(`/devices/${id}/telemetry`, {
          query: { from, limit: 5000, ...(bucket ? { bucket } : {}) },
        })
      ).data;
    },
    refetchInterval: refreshMs,
    placeholderData: keepPreviousData,
  });
}

export function useDeviceEvents(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: deviceKeys.events(id, page),
    queryFn: async () => {
      const response = await api.get<DeviceEvent[]>(`/devices/${id}/events`, {
        query: { limit: pageSize, offset: (page - 1) * pageSize },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useDeviceCommands(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: deviceKeys.commands(id, page),
    queryFn: async () => {
      const response = await api.get<DeviceCommand[]>(`/devices/${id}/commands`, {
        query: { limit: pageSize, offset: (page - 1) * pageSize },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

/** Device work that survives navigation (product §7: a submitted change is not undone by leaving). */
const KEEP = { keepOnRouteChange: true } as const;

/** product §7 bulk body: `{action, device_id[]}` and the action's parameters. */
export type BulkBody = z.input<typeof bulkActionBody>;

export const deviceActions = {
  /** product §7 bulk device actions: `{action, device_id[]}`, a result per device, progress on `meta.channel`. */
  bulk: (body: BulkBody) => api.post<BulkResult[]>('/devices/actions', body, KEEP),
  /** The commands one bulk request created (its `meta.channel`), as they stand. */
  batch: (batchId: string) => api.get<DeviceCommand[]>(`/devices/actions/${batchId}`, KEEP),
  cancel: (commandId: string) => api.post<DeviceCommand>(`/devices/commands/${commandId}/cancel`, {}, KEEP),
  unregister: (id: number) => api.delete<IdResult>(`/devices/${id}`, KEEP),
};

/**
 * Every device matching the filters, id and name, up to `max` (the bulk limit): keyset
 * pages of 100 sorted by id, for 'select all rows matching the filter'.
 */
export async function fetchMatchingDevices(
  filters: DeviceFilters,
  max: number,
): Promise<{ devices: Pick<DeviceItem, 'id' | 'name'>[]; total: number }> {
  const devices: Pick<DeviceItem, 'id' | 'name'>[] = [];
  let cursor: string | undefined;
  let total = 0;
  while (devices.length < max) {
    const response = await api.get<Pick<DeviceItem, 'id' | 'name'>[]>('/devices', {
      query: {
        ...filterQuery(filters),
        fields: ['id', 'name'],
        sort: 'id',
        limit: 100,
        ...(cursor ? { cursor } : {}),
      },
      keepOnRouteChange: true,
    });
    total = Number(response.meta?.total ?? 0);
    devices.push(...response.data);
    const next = response.meta?.next_cursor;
    if (typeof next !== 'string' || response.data.length < 100) break;
    cursor = next;
  }
  return { devices: devices.slice(0, max), total };
}
