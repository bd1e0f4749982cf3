import i18next from 'i18next';
import type { ActionItem, ActionStatusSource, RefusedItem } from '#src/lib/dialogs/action-status-state';
import { downloadFile } from '#src/lib/http/download';
import { deviceActions } from './api/devices';

/** `action.{batch id}`: the channel of device work, whose commands the API lists. */
const BATCH_CHANNEL = /^action\.([0-9a-f-]{36})$/;
/** Actions answered with a file (the device's exports). */
export const FILE_ACTIONS = new Set(['export_backup', 'export_event_log', 'export_troubleshoot']);

/** A device command as 'Action status' follows it: its id is the command id. */
export type DeviceActionItem = ActionItem & { device_id: number; action: string };

/** Device names by id (as a string key), for the rows; a device without one shows as `#id`. */
export type DeviceNames = Readonly<Record<string, string>>;

const nameOf = (names: DeviceNames, id: number) => names[String(id)] ?? `#${id}`;

/**
 * 'Action status' of device work (product §4, §7 bulk device actions): the commands of one
 * request, read from `/devices/actions/{batch}` and followed through `DeviceActionUpdated`;
 * a pending command can be cancelled, a finished export downloaded.
 */
export function deviceBatchSource(
  channel: string,
  names: DeviceNames = {},
): ActionStatusSource<DeviceActionItem> {
  const batch = BATCH_CHANNEL.exec(channel)?.[1];
  return {
    channel,
    event: {
      name: 'DeviceActionUpdated',
      toItem: (update) => ({
        id: update.command_id,
        device_id: update.device_id,
        action: update.action,
        status: update.status,
        output: update.output,
        error: update.error,
      }),
    },
    ...(batch
      ? {
          snapshot: async () => {
            const response = await deviceActions.batch(batch);
            return response.data.map((command) => ({
              id: command.id,
              device_id: command.device_id,
              action: command.action,
              status: command.status,
              output: command.output,
              error: command.error,
            }));
          },
        }
      : {}),
    label: (item) =>
      `${nameOf(names, item.device_id)} · ${i18next.t(`devices:action.${item.action}`, { defaultValue: item.action })}`,
    attributes: (item) => ({ 'data-command-id': item.id, 'data-device-id': item.device_id }),
    cancel: (item) => deviceActions.cancel(item.id),
    download: (item) =>
      FILE_ACTIONS.has(item.action)
        ? () =>
            downloadFile(`/devices/commands/${item.id}/file`, {
              fallbackName: `${item.action}-${item.device_id}`,
            })
        : null,
  };
}

/** The devices a bulk request did not reach, named, with the server's reason. */
export function refusedDevices(
  refused: readonly { id: number; reason: string }[],
  names: DeviceNames = {},
): RefusedItem[] {
  return refused.map((r) => ({
    key: String(r.id),
    label: nameOf(names, r.id),
    reason: r.reason,
    attributes: { 'data-device-id': r.id },
  }));
}
