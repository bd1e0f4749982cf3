import type { StatusMessage } from '@fleetgate/shared/devices/messages';
import type { GatewayContext } from '../context';
import type { DeviceIdentity } from '../ports';
import { markOffline, markOnline } from './presence';

/**
 * `up/status`: online after connect, offline by the device or its last will. `replayed`:
 * the broker handed the retained status to a server that just subscribed.
 */
export async function handleStatus(
  ctx: GatewayContext,
  device: DeviceIdentity,
  message: StatusMessage,
  replayed = false,
) {
  if (message.state === 'online') await markOnline(ctx, device, message.conn ?? null, { replayed });
  else await markOffline(ctx, device, message.conn ?? null, message.reason ?? 'offline');
}
