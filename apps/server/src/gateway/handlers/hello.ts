import { findModel } from '@fleetgate/shared/devices/catalogue';
import type { HelloMessage, SecretMessage } from '@fleetgate/shared/devices/messages';
import { topics } from '@fleetgate/shared/devices/topics';
import { neutralizeTexts } from '@fleetgate/shared/limits';
import { digest, newToken } from '#src/auth/tokens';
import type { GatewayContext } from '../context';
import { notifyStatus } from '../notify';
import type { DeviceIdentity } from '../ports';

/**
 * `up/hello`: the device says who it is after every connect, once subscribed. Its
 * identity fields are stored; a device without a secret (first contact) gets one on
 * `down/secret`; a device with one gets its open commands.
 */
export async function handleHello(ctx: GatewayContext, device: DeviceIdentity, message: HelloMessage) {
  const record = await ctx.store.hello.profile(device.id);
  if (!record) return;
  if (message.serial !== record.serial) {
    ctx.log.warn({ serial: record.serial }, 'hello names another serial; dropped');
    return;
  }
  // What the device reports is shown in the console: text-direction and invisible characters
  // removed, control characters replaced ('RUT2\u202eelif.exe' would show as 'RUT2exe.file').
  const hello = neutralizeTexts(message);
  // A model or firmware with nothing visible left is as good as unreported: the stored one stays.
  const vendorModel = hello.model.trim().toUpperCase() || record.originalModel;
  const firmware = hello.firmware.trim() || record.firmware;
  const now = new Date();
  const updated = await ctx.store.hello.save(device.id, {
    // A model set at registration may be a branded name (product §1 branded_devices): keep it,
    // and keep the vendor's model as original_model, which capabilities derive from.
    model: record.model ?? vendorModel,
    originalModel: vendorModel,
    firmware,
    imei: hello.imei ?? record.imei,
    hostname: hello.hostname ?? record.hostname,
    sims: hello.sims ?? record.sims,
    agent: hello.agent ? `${hello.agent.name}/${hello.agent.version}` : record.agent,
    esim: vendorModel ? (findModel(vendorModel)?.esim ?? false) : record.esim,
    bootId: hello.boot_id ?? record.bootId,
    lastSeenAt: now,
  });
  if (!updated) return;

  if (record.bootId && hello.boot_id && hello.boot_id !== record.bootId) {
    await ctx.recordEvent(device, { type: 'device.boot', message: 'Device booted', at: now });
  }
  if (record.firmware && record.firmware !== firmware) {
    await ctx.recordEvent(device, {
      type: 'firmware.changed',
      message: `Firmware changed from ${record.firmware} to ${firmware}`,
      at: now,
    });
  }
  if (record.model !== updated.model || record.firmware !== updated.firmware) {
    notifyStatus(ctx.notify, { ...updated, model: updated.model, firmware: updated.firmware });
  }

  if (!record.secretHash) {
    // First contact: only a session that proved serial and MAC gets here (the ACL keeps
    // claim sessions to hello and status). The secret is stored hashed, pending until used.
    const secret = newToken();
    await ctx.store.hello.issueSecret(device.id, digest(secret), now);
    const message: SecretMessage = { secret, issued_at: now.toISOString() };
    await ctx.publish(topics.secret(record.serial), JSON.stringify(message));
    await ctx.recordEvent(device, {
      type: 'identity.secret_issued',
      message: 'Device secret issued on first contact',
      at: now,
    });
    return;
  }
  await ctx.commands.flush(device.id);
}
