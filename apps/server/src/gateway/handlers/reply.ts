import type { ReplyMessage } from '@fleetgate/shared/devices/messages';
import { neutralizeText } from '@fleetgate/shared/limits';
import type { GatewayContext } from '../context';
import { notifyCommand } from '../notify';
import type { DeviceIdentity } from '../ports';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `up/reply/{id}`: moves the command of THIS device (another device's command id changes
 * nothing) from sent to acked, then to done or failed. Repeated replies are no-ops.
 */
export async function handleReply(
  ctx: GatewayContext,
  device: DeviceIdentity,
  message: ReplyMessage,
  commandId: string,
) {
  if (message.id !== commandId) {
    ctx.log.warn({ serial: device.serial, commandId }, 'reply id differs from its topic; dropped');
    return;
  }
  const file = message.file && BASE64.test(message.file.data) ? message.file : undefined;
  const row = await ctx.store.commands.applyReply(device.id, commandId, {
    status: message.status,
    // Output and errors are shown in the console: no text-direction or invisible characters.
    ...(message.output !== undefined ? { output: neutralizeText(message.output, { multiline: true }) } : {}),
    ...(message.error !== undefined ? { error: neutralizeText(message.error) } : {}),
    ...(message.result !== undefined ? { result: message.result } : {}),
    ...(file ? { file: { name: file.name, type: file.content_type, data: file.data } } : {}),
  });
  if (row) notifyCommand(ctx.notify, row);
}
