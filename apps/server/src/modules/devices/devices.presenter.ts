import { deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import { deviceStatusText } from '@fleetgate/shared/devices/status';
import type { devicesRepository } from './devices.repository';

type Detail = NonNullable<Awaited<ReturnType<typeof devicesRepository.findInScope>>>;

/**
 * The device page's view of a device: the row, the capabilities of spec §3, and whether
 * it has been issued a secret (never the secret or its hash).
 */
export function presentDeviceDetail(row: Detail) {
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
  };
}
