import type {
  attemptSchema,
  commandSchema,
  DeviceRow,
  deviceDetailSchema,
  deviceEventSchema,
  deviceTagSchema,
  telemetryPointSchema,
} from '@fleetgate/shared/schemas/devices';
import type { z } from 'zod';

/** A server type as it arrives over JSON: dates are ISO strings. */
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export type DeviceItem = Json<DeviceRow>;
export type DeviceTag = z.infer<typeof deviceTagSchema>;
export type DeviceDetail = Json<z.infer<typeof deviceDetailSchema>>;
export type DeviceCommand = Json<z.infer<typeof commandSchema>>;
export type DeviceEvent = Json<z.infer<typeof deviceEventSchema>>;
export type ConnectionAttempt = Json<z.infer<typeof attemptSchema>>;

/** A chart point: the shared telemetry columns plus the values the server reads from the stored message. */
export type ChartPoint = Json<z.infer<typeof telemetryPointSchema>> & {
  rsrp?: number | null;
  rsrq?: number | null;
  sinr?: number | null;
  ain?: number | null;
  acl?: number | null;
  speed?: number | null;
  alt?: number | null;
  satellites?: number | null;
};

export type DataUsage = { rx: number; tx: number };
export type DeviceMetrics = {
  state: Record<string, unknown> | null;
  state_at: string | null;
  data_usage: { last_24h: DataUsage; last_30d: DataUsage };
};

/** The filters, sort and search of the devices table. */
export type DeviceFilters = {
  q: string;
  status: number[];
  model: string[];
  company_id: number[];
  firmware: string[];
  tag_id: number[];
};

export type DeviceListQuery = DeviceFilters & {
  sort: string;
  limit: number;
  /** Offset paging, or a keyset cursor from the previous page's `meta.next_cursor`. */
  offset: number;
  cursor?: string | undefined;
};

export type DeviceListPage = {
  rows: DeviceItem[];
  /** Exact up to the server's cap; with `totalCapped` there are more. */
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
};

/** Per-device outcome of a bulk action (product §7 `{action, device_id[]}`). */
export type BulkResult = {
  device_id: number;
  success: boolean;
  command_id?: string;
  errors?: { code: string; message: string; source?: string }[];
};

/** Per-row outcome of an import from a CSV file. */
export type ImportRowResult = {
  line: number;
  serial: string;
  mac: string;
  success: boolean;
  device_id?: number;
  errors?: { code: string; message: string; source?: string }[];
};
