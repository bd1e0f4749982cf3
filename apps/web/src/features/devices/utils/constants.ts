import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';

/** Constants of the devices screens, each from the spec section cited. */

/** product §9: refresh interval choices of the device charts, in seconds. */
export const REFRESH_INTERVALS = [
  { value: 10, label: '10s' },
  { value: 30, label: '30s' },
  { value: 60, label: '1m' },
  { value: 300, label: '5m' },
  { value: 900, label: '15m' },
  { value: 1800, label: '30m' },
  { value: 3600, label: '1h' },
  { value: 7200, label: '2h' },
  { value: 86_400, label: '24h' },
] as const;
export const DEFAULT_REFRESH_SECONDS = 60;

/** Chart ranges and the bucket (seconds) each reads; null is raw points. */
export const CHART_RANGES = [
  { value: '1h', seconds: 3600, bucket: null },
  { value: '6h', seconds: 6 * 3600, bucket: 60 },
  { value: '24h', seconds: 86_400, bucket: 300 },
  { value: '7d', seconds: 7 * 86_400, bucket: 1800 },
  { value: '30d', seconds: 30 * 86_400, bucket: 7200 },
] as const;
export type ChartRange = (typeof CHART_RANGES)[number]['value'];

/** product §9: map clustering defaults. */
export const MAP_CLUSTERING = {
  gridSize: 60,
  minimumClusterSize: 2,
  batchSize: 2000,
  iconSizes: [53, 56, 66, 78, 90],
} as const;

/** product §9: ports map to services. */
export const PORT_SERVICES = [
  { port: 22, services: ['ssh', 'sftp'] },
  { port: 23, services: ['telnet'] },
  { port: 80, services: ['http'] },
  { port: 443, services: ['https'] },
  { port: 3389, services: ['rdp'] },
  { port: 5900, services: ['vnc'] },
] as const;

/** product §4: the status filter offers the three named states and 'Not Activated'. */
export const STATUS_FILTER_VALUES = [
  DEVICE_STATUS.online,
  DEVICE_STATUS.offline,
  DEVICE_STATUS.pending,
  DEVICE_STATUS.notActivated,
] as const;

/** Page sizes of the devices table (the API allows 1..100). */
export const TABLE_PAGE_SIZES = [25, 50, 100] as const;

/** The bulk endpoint takes at most this many devices per request (shared schema). */
export const BULK_MAX_DEVICES = 1000;

/** Map tiles: configurable, OpenStreetMap by default; a failed tile never breaks the page. */
export const MAP_TILE_URL: string =
  (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ||
  'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const MAP_TILE_ATTRIBUTION: string =
  (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined) || '© OpenStreetMap contributors';
