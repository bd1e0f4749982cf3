import type { StatusMessage } from '@fleetgate/shared/devices/messages';
import type { DeviceIdentity } from '../../modules/devices/devices.repository';
import type { GatewayContext } from '../context';
import { markOffline, markOnline } from './presence';

/** `up/status`: online after connect, offline by the device or its last will. */
export async function handleStatus(ctx: GatewayContext, device: DeviceIdentity, message: StatusMessage) {
  if (message.state === 'online') await markOnline(ctx, device, message.conn ?? null);
  else await markOffline(ctx, device, message.conn ?? null, message.reason ?? 'offline');
}
