import { deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import { deviceStatusText } from '@fleetgate/shared/devices/status';
import type { OkBody } from '@fleetgate/shared/schemas/api';
import { type Brand, brandedModel } from '@fleetgate/shared/schemas/brand';
import type { DeviceDetail, DeviceListBody, ImportRowResult } from '@fleetgate/shared/schemas/devices';
import { pickFields } from '#src/http/list-query';
import { csvLine } from './csv';
import type { devicesRepository } from './devices.repository';
import type { devicesService } from './devices.service';

type Detail = NonNullable<Awaited<ReturnType<typeof devicesRepository.findInScope>>>;
type DevicePage = Awaited<ReturnType<typeof devicesService.list>>;
type DeviceTag = { id: number; name: string; color: string };

/** The columns of the devices CSV export, in order. */
const EXPORT_COLUMNS = [
  'id',
  'name',
  'serial',
  'mac',
  'model',
  'firmware',
  'imei',
  'status_text',
  'company_name',
  'last_seen_at',
  'signal',
  'temperature',
  'operator',
  'wan_ip',
  'description',
] as const;

/**
 * The device page's view of a device: the row, the capabilities of product §3, whether it has
 * been issued a secret (never the secret or its hash), and its tags.
 */
export function presentDeviceDetail(row: Detail, tags: DeviceTag[]): DeviceDetail {
  const { secret_hash, state, ...rest } = row;
  return {
    ...rest,
    status_text: deviceStatusText(row.status),
    capabilities: deriveCapabilities({
      model: row.model,
      original_model: row.original_model,
      firmware: row.firmware,
    }),
    secret_issued: secret_hash !== null,
    state: state ?? null,
    tags,
  };
}

/** A page of the devices list: the asked fields, the total, and the keyset cursor if any. */
export function presentDevicePage(page: DevicePage, fields: string[] | undefined): DeviceListBody {
  return {
    success: true as const,
    data: pickFields(page.rows, fields),
    meta: {
      total: page.total,
      ...(page.totalCapped ? { total_capped: true as const } : {}),
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
    },
  };
}

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], unknown> & {
  model: string | null;
  original_model: string | null;
};

/**
 * The devices list as CSV lines, the header first. A file leaves the console, so it says
 * what the console shows: the brand's name for each model (product §1 branded_devices).
 */
export async function* devicesCsv(rows: AsyncIterable<ExportRow>, brand: Pick<Brand, 'branded_devices'>) {
  yield csvLine([...EXPORT_COLUMNS]);
  for await (const row of rows) {
    const shown = { ...row, model: brandedModel(brand, row) };
    yield csvLine(EXPORT_COLUMNS.map((c) => shown[c]));
  }
}

/** An import's answer: one result per row, and how many devices it created. */
export function presentImport(results: ImportRowResult[]): OkBody<ImportRowResult[]> {
  const created = results.filter((x) => x.success).length;
  return {
    success: true as const,
    data: results,
    meta: { total: results.length, created },
    message: `${created} of ${results.length} devices created`,
  };
}
