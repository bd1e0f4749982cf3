import type { Json } from '@fleetgate/shared/schemas/api';
import type {
  ChartPoint as ChartPointData,
  ConnectionAttempt as ConnectionAttemptData,
  DeviceEvent as DeviceEventData,
  DeviceMetrics as DeviceMetricsData,
  telemetryPointSchema,
} from '@fleetgate/shared/schemas/device-data';
import type {
  Command,
  DeviceDetail as DeviceDetailData,
  DeviceListQuery as DeviceListQueryData,
  DeviceRow,
  deviceTagSchema,
} from '@fleetgate/shared/schemas/devices';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type { z } from 'zod';

export type { DailyUsage, DataUsage } from '@fleetgate/shared/schemas/device-data';
export type { BulkResult, ImportRowResult } from '@fleetgate/shared/schemas/devices';

/** The server's types as the console receives them (dates as ISO strings). */
export type DeviceItem = Json<DeviceRow>;
export type DeviceTag = z.infer<typeof deviceTagSchema>;
export type DeviceDetail = Json<DeviceDetailData>;
export type DeviceCommand = Json<Command>;
export type DeviceEvent = Json<DeviceEventData>;
export type ConnectionAttempt = Json<ConnectionAttemptData>;
export type DeviceMetrics = Json<DeviceMetricsData>;

/**
 * A chart point: the telemetry columns, and the values the server reads from the stored
 * message, which a point pushed live does not carry.
 */
export type ChartPoint = Json<z.infer<typeof telemetryPointSchema>> & Partial<Json<ChartPointData>>;

/** The filters and search of the devices table, as its state holds them (the URL's, product §7). */
export type DeviceFilters = {
  q: string;
  status: number[];
  model: string[];
  company_id: number[];
  firmware: string[];
  tag_id: number[];
};

/** One page of the table: sort, size, and offset paging or a keyset cursor from `meta.next_cursor`. */
export type DeviceListQuery = DeviceFilters &
  Pick<ListParams, 'sort' | 'limit' | 'offset'> &
  Pick<DeviceListQueryData, 'cursor'>;

/** A page of the devices list as the table keeps it: the rows and what `meta` said of the rest. */
export type DeviceListPage = {
  rows: DeviceItem[];
  /** Exact up to the server's cap; with `totalCapped` there are more. */
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
};
