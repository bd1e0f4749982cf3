import { MONITORING } from '@fleetgate/shared/limits';
import { Alert, Badge, Button, Group, NumberInput, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowsStore } from '#src/lib/dialogs/WindowsProvider';
import { useWindow } from '#src/lib/dialogs/window-context';
import { successMessage } from '#src/lib/http/results';
import { notifySuccess } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import { deviceBatchSource, refusedDevices } from '../action-source';
import { type BulkBody, deviceActions, deviceKeys } from '../api/devices';
import type { BulkResult } from '../api/types';
import { text } from '../utils/format';

/** The actions these dialogs send as product §7 `{action, device_id[]}`. */
export type DeviceBulkAction =
  | 'reboot'
  | 'export_backup'
  | 'export_event_log'
  | 'export_troubleshoot'
  | 'monitoring_period'
  | 'unregister'
  | 'reset_identity';

export type DeviceActionDialogProps = {
  action: DeviceBulkAction;
  devices: readonly { id: number; name: string }[];
  /** The monitoring period to start from (a single device's current one). */
  period?: number;
  /** Called once the server accepted the request (e.g. leave a removed device's page). */
  onDone?(results: BulkResult[]): void;
};

const DANGER: readonly DeviceBulkAction[] = ['unregister', 'reset_identity'];

/**
 * Asks before a device action and sends it for one device or many (product §2 dialogs
 * reboot, export, monitoring period, unregister). On success (product §4) the dialog closes:
 * the toast says what was sent, and when the answer carries a channel 'Action status'
 * opens with the summary, each device's steps and the devices that refused. The dialog
 * stays only when nothing was done (every device refused, or an action without a channel
 * that some refused), to show why.
 */
export function DeviceActionDialog({
  action,
  devices,
  period: initialPeriod,
  onDone,
}: DeviceActionDialogProps) {
  const { t } = useTranslation('devices');
  const window = useWindow();
  const windows = useWindowsStore();
  const [period, setPeriod] = useState<number | string>(initialPeriod ?? MONITORING.defaultSeconds);
  const [results, setResults] = useState<BulkResult[] | null>(null);
  const names = Object.fromEntries(devices.map((d) => [String(d.id), d.name]));
  const periodValid =
    typeof period === 'number' &&
    Number.isInteger(period) &&
    period >= MONITORING.minSeconds &&
    period <= MONITORING.maxSeconds;

  const send = useAction({
    call: (body: BulkBody) => deviceActions.bulk(body),
    failure: { verb: 'send', item: 'action' },
    invalidate: [deviceKeys.all],
    onSuccess: (response) => {
      const channel = typeof response.meta?.channel === 'string' ? response.meta.channel : '';
      const accepted = response.data.filter((r) => r.success);
      const refused = response.data
        .filter((r) => !r.success)
        .map((r) => ({ id: r.device_id, reason: r.errors?.map((e) => e.message).join('; ') ?? '' }));
      if (accepted.length === 0 || (!channel && refused.length > 0)) {
        // Nothing to follow and something refused: the reasons stay here, in this one window.
        if (accepted.length) onDone?.(response.data);
        setResults(response.data);
        return;
      }
      onDone?.(response.data);
      const done = successMessage(
        t(`bulk.item.${action}`, { count: accepted.length }),
        t(`bulk.verb.${action}`),
        (parts) => t('forms:result.success', parts),
      );
      notifySuccess(done);
      window?.close();
      // product §4: a response with a channel opens 'Action status', the one window left.
      if (channel) {
        windows.openNamed(
          'actionStatus',
          {
            source: deviceBatchSource(channel, names),
            refused: refusedDevices(refused, names),
            ...(response.message ? { message: response.message } : {}),
          },
          { id: `device-action:${channel}` },
        );
      }
    },
  });

  async function submit() {
    if (send.pending) return;
    const device_id = devices.map((d) => d.id);
    await send.run(
      action === 'monitoring_period'
        ? { action, device_id, params: { period: Number(period) } }
        : action === 'unregister' || action === 'reset_identity'
          ? { action, device_id }
          : { action, device_id, params: {} },
    );
  }

  if (results) {
    const ok = results.filter((r) => r.success).length;
    return (
      <Stack data-testid="bulk-results">
        <Alert color={ok === results.length ? 'green' : 'orange'} variant="light">
          {t('bulk.summary', { ok, total: results.length })}
        </Alert>
        <ScrollArea.Autosize mah={320}>
          <Table verticalSpacing={4}>
            <Table.Tbody>
              {results.map((r) => (
                <Table.Tr key={r.device_id} data-testid="bulk-result" data-device-id={r.device_id}>
                  <Table.Td>{text(names[String(r.device_id)] ?? `#${r.device_id}`)}</Table.Td>
                  <Table.Td>
                    <Badge color={r.success ? 'green' : 'red'} variant="light">
                      {r.success ? t('bulk.accepted') : t('bulk.refused')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {r.errors?.map((e) => e.message).join('; ')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button onClick={() => window?.close()}>{t('bulk.close')}</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack data-testid="device-action-dialog" data-action={action}>
      <Text>
        {devices.length === 1
          ? t(`confirm.${action}.one`, { name: devices[0]!.name })
          : t(`confirm.${action}.many`, { count: devices.length })}
      </Text>
      {action === 'monitoring_period' && (
        <NumberInput
          label={t('field.period')}
          description={t('monitoring.hint')}
          value={period}
          onChange={setPeriod}
          min={MONITORING.minSeconds}
          max={MONITORING.maxSeconds}
          // Out of range stays as typed, with the message under it, rather than changed on leaving.
          clampBehavior="none"
          step={1}
          rightSection="s"
          error={periodValid ? undefined : t('monitoring.range')}
          data-autofocus
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window?.close()}>
          {t('confirm.cancel')}
        </Button>
        <Button
          color={DANGER.includes(action) ? 'red' : undefined}
          loading={send.pending}
          disabled={action === 'monitoring_period' && !periodValid}
          onClick={() => void submit()}
          data-testid="device-action-confirm"
        >
          {t(`confirm.${action}.button`)}
        </Button>
      </Group>
    </Stack>
  );
}
