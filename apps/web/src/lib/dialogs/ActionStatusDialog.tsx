import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBroadcast, IconDownload, IconX } from '@tabler/icons-react';
import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../http/client';
import { downloadFile } from '../http/download';
import type { ChannelHub } from '../socket/channel-hub';
import { channelHub } from '../socket/socket';
import { useChannel } from '../socket/useChannel';
import {
  ACTION_STEPS,
  type ActionItem,
  actionStatusReducer,
  initialActionStatus,
  isFinalStep,
  stepRank,
  summarize,
} from './action-status-state';
import { useWindow } from './window-context';

/** `action.{batch id}`: the channel of device work, whose commands the API lists. */
const DEVICE_ACTION_CHANNEL = /^action\.([0-9a-f-]{36})$/;
/** Actions answered with a file (the device's exports). */
const FILE_ACTIONS = new Set(['export_backup', 'export_event_log', 'export_troubleshoot']);
const COLORS: Record<string, string> = {
  done: 'green',
  failed: 'red',
  expired: 'orange',
  cancelled: 'gray',
};

/** A command row of the API (its id is the command id). */
type CommandRow = Omit<ActionItem, 'command_id'> & { id: string };

/** A subject the request did not reach, with the server's reason (a bulk action's refused device). */
export type RefusedSubject = { id: number; reason: string };

export type ActionStatusProps = {
  channel: string;
  /** The request's summary ('2 of 2 devices accepted the action'), shown once, here. */
  message?: string;
  /** Names of the subjects by device id, e.g. device names (else `#id`). */
  subjects?: Record<string, string>;
  /** Subjects the request did not reach: they have no command to follow. */
  refused?: readonly RefusedSubject[];
  hub?: ChannelHub;
};

/**
 * 'Action status' (product §4 Form submission): the server accepted a mutation that goes on
 * in the background and reports each step on a realtime channel. The dialog starts from
 * the commands' current state and follows their `DeviceActionUpdated` steps live.
 */
export function ActionStatusDialog(props: ActionStatusProps) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  return (
    <Stack>
      <ActionStatusView {...props} />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window?.close()}>
          {t('actionStatus.close')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The content of 'Action status', also shown inside a form that stays open (the CLI). */
export function ActionStatusView({
  channel,
  message,
  subjects,
  refused = [],
  hub = channelHub,
}: ActionStatusProps) {
  const { t } = useTranslation('dialogs');
  const [state, dispatch] = useReducer(actionStatusReducer, initialActionStatus);
  const live = useChannel(
    channel,
    'DeviceActionUpdated',
    (update) => dispatch({ type: 'update', item: update }),
    hub,
  );
  const batch = DEVICE_ACTION_CHANNEL.exec(channel)?.[1];

  // The steps before the subscription was live are read once it is (and at once, in case it never is).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the channel turns live.
  useEffect(() => {
    if (!batch) return;
    let stale = false;
    api
      .get<CommandRow[]>(`/devices/actions/${batch}`, { keepOnRouteChange: true })
      .then((response) => {
        const items = response.data.map(({ id, ...row }) => ({ ...row, command_id: id }));
        if (!stale) dispatch({ type: 'snapshot', items });
      })
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [batch, live]);

  const summary = summarize(state);
  const finished = summary.total > 0 && summary.open === 0;
  return (
    <Stack data-testid="action-status" data-finished={finished || undefined}>
      {message && (
        <Text fw={500} data-testid="action-status-summary">
          {message}
        </Text>
      )}
      <Alert icon={<IconBroadcast size={18} />} color={finished ? 'green' : 'blue'} variant="light">
        {finished ? t('actionStatus.finished', summary) : t('actionStatus.progress')}
      </Alert>
      {state.order.map((id) => (
        <ActionRow key={id} item={state.items[id]!} subject={subjects?.[state.items[id]!.device_id]} />
      ))}
      {refused.map((r) => (
        <Group
          key={r.id}
          justify="space-between"
          wrap="nowrap"
          data-testid="action-status-refused"
          data-device-id={r.id}
        >
          <Text fw={500}>{subjects?.[String(r.id)] ?? `#${r.id}`}</Text>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed">
              {r.reason}
            </Text>
            <Badge size="sm" color="red" variant="filled">
              {t('actionStatus.refused')}
            </Badge>
          </Group>
        </Group>
      ))}
      <Text size="sm" c="dimmed">
        {t('actionStatus.channel')} <Code data-testid="action-status-channel">{channel}</Code>
      </Text>
    </Stack>
  );
}

function ActionRow({ item, subject }: { item: ActionItem; subject: string | undefined }) {
  const { t } = useTranslation('dialogs');
  const rank = stepRank(item.status);
  const final = isFinalStep(item.status);
  const fail = (error: unknown) =>
    notifications.show({ color: 'red', message: error instanceof Error ? error.message : String(error) });
  return (
    <Stack
      gap={6}
      data-testid="action-status-item"
      data-command-id={item.command_id}
      data-device-id={item.device_id}
      data-status={item.status}
    >
      <Group justify="space-between" wrap="nowrap">
        <Text fw={500}>
          {subject ?? `#${item.device_id}`} ·{' '}
          {t(`devices:action.${item.action}`, { defaultValue: item.action })}
        </Text>
        <Group gap={4} wrap="nowrap">
          {ACTION_STEPS.map((step, index) => (
            <Badge key={step} size="sm" variant={rank >= index ? 'filled' : 'outline'} color="blue">
              {t(`actionStatus.step.${step}`)}
            </Badge>
          ))}
          <Badge
            size="sm"
            variant={final ? 'filled' : 'outline'}
            color={COLORS[item.status] ?? 'gray'}
            data-testid="action-status-state"
          >
            {t(`actionStatus.step.${final ? item.status : 'done'}`)}
          </Badge>
        </Group>
      </Group>
      {item.error && (
        <Text size="sm" c="red">
          {item.error}
        </Text>
      )}
      {item.output && (
        <Code block data-testid="action-status-output" style={{ maxHeight: 240, overflow: 'auto' }}>
          {item.output}
        </Code>
      )}
      <Group gap="xs">
        {item.status === 'pending' && (
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconX size={14} />}
            onClick={() => api.post(`/devices/commands/${item.command_id}/cancel`, {}).catch(fail)}
          >
            {t('actionStatus.cancel')}
          </Button>
        )}
        {item.status === 'done' && FILE_ACTIONS.has(item.action) && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            onClick={() =>
              downloadFile(`/devices/commands/${item.command_id}/file`, {
                fallbackName: `${item.action}-${item.device_id}`,
              }).catch(fail)
            }
          >
            {t('actionStatus.download')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
