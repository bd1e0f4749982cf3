import type { EventMessage } from '@fleetgate/shared/devices/messages';
import { neutralizeText } from '@fleetgate/shared/limits';
import type { GatewayContext } from '../context';
import type { DeviceIdentity } from '../ports';
import { messageTime } from '../telemetry-reports';

/** `up/event`: stored for the activity tab and pushed to the device's channel. */
export async function handleEvent(ctx: GatewayContext, device: DeviceIdentity, message: EventMessage) {
  await ctx.recordEvent(device, {
    type: `device.${message.type}`,
    severity: message.severity,
    // Shown in the activity tab: no text-direction or invisible characters (limits.ts).
    message: neutralizeText(message.message, { multiline: true }),
    ...(message.data ? { data: message.data } : {}),
    at: messageTime(message.at, new Date()),
  });
}
