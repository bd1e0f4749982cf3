import type { EventMessage } from '@fleetgate/shared/devices/messages';
import type { DeviceIdentity } from '../../modules/devices/devices.repository';
import type { GatewayContext } from '../context';
import { messageTime } from '../telemetry-reports';

/** `up/event`: stored for the activity tab and pushed to the device's channel. */
export async function handleEvent(ctx: GatewayContext, device: DeviceIdentity, message: EventMessage) {
  await ctx.recordEvent(device, {
    type: `device.${message.type}`,
    severity: message.severity,
    message: message.message,
    ...(message.data ? { data: message.data } : {}),
    at: messageTime(message.at, new Date()),
  });
}
