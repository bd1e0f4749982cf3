import type { StateMessage } from '@fleetgate/shared/devices/messages';
import type { DeviceIdentity } from '../../modules/devices/devices.repository';
import type { GatewayContext } from '../context';

/** `up/state`: telemetry joins the next batch (telemetry-writer.ts). */
export async function handleState(ctx: GatewayContext, device: DeviceIdentity, message: StateMessage) {
  ctx.telemetry.add(device, message);
}
