import type { ChannelEventName } from '@fleetgate/shared/events';
import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBroadcast, IconDownload, IconX } from '@tabler/icons-react';
import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChannelHub } from '../socket/channel-hub';
import { channelHub } from '../socket/socket';
import { useChannel } from '../socket/useChannel';
import {
  ACTION_STEPS,
  type ActionItem,
  type ActionStatusSource,
  actionStatusReducer,
  initialActionStatus,
  isFinalStep,
  type RefusedItem,
  stepRank,
  summarize,
} from './action-status-state';
import { useWindow } from './window-context';

const COLORS: Record<string, string> = {
  done: 'green',
  failed: 'red',
  expired: 'orange',
  cancelled: 'gray',
};

export type ActionStatusProps = {
  /** Where the items come from: the feature that started the work. */
  source: ActionStatusSource;
  /** The request's summary ('2 of 2 devices accepted the action'), shown once, here. */
  message?: string;
  /** Subjects the request did not reach: they have no item to follow. */
  refused?: readonly RefusedItem[];
  hub?: ChannelHub;
};

/** The source of a request whose feature named none: the dialog shows its summary and channel. */
export function channelOnlySource(channel: string): ActionStatusSource {
  return { channel, label: (item) => item.id };
}

/**
 * 'Action status' (product §4 Form submission): the server accepted a mutation that goes on
 * in the background and reports each step on a realtime channel. The dialog starts from
 * the items' current state and follows their steps live, both as its source says.
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
export function ActionStatusView({ source, message, refused = [], hub = channelHub }: ActionStatusProps) {
  const { t } = useTranslation('dialogs');
  const [state, dispatch] = useReducer(actionStatusReducer, initialActionStatus);
  const feed = source.event;
  const live = useChannel(
    feed ? source.channel : null,
    // Without a feed the channel is null and nothing is listened to, whatever the name.
    feed?.name as ChannelEventName,
    (payload) => {
      const item = feed?.toItem(payload as never);
      if (item) dispatch({ type: 'update', item });
    },
    hub,
  );

  // The steps before the subscription was live are read once it is (and at once, in case it never is).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the channel turns live.
  useEffect(() => {
    if (!source.snapshot) return;
    let stale = false;
    source
      .snapshot()
      .then((items) => {
        if (!stale) dispatch({ type: 'snapshot', items });
      })
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [source, live]);

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
        <ActionRow key={id} item={state.items[id]!} source={source} />
      ))}
      {refused.map((r) => (
        <Group
          key={r.key}
          justify="space-between"
          wrap="nowrap"
          data-testid="action-status-refused"
          {...r.attributes}
        >
          <Text fw={500}>{r.label}</Text>
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
        {t('actionStatus.channel')} <Code data-testid="action-status-channel">{source.channel}</Code>
      </Text>
    </Stack>
  );
}

function ActionRow({ item, source }: { item: ActionItem; source: ActionStatusSource }) {
  const { t } = useTranslation('dialogs');
  const rank = stepRank(item.status);
  const final = isFinalStep(item.status);
  const fail = (error: unknown) =>
    notifications.show({ color: 'red', message: error instanceof Error ? error.message : String(error) });
  const download = item.status === 'done' ? source.download?.(item) : null;
  return (
    <Stack gap={6} data-testid="action-status-item" {...source.attributes?.(item)} data-status={item.status}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={500}>{source.label(item)}</Text>
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
        {item.status === 'pending' && source.cancel && (
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconX size={14} />}
            onClick={() => source.cancel?.(item).catch(fail)}
          >
            {t('actionStatus.cancel')}
          </Button>
        )}
        {download && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            onClick={() => download().catch(fail)}
          >
            {t('actionStatus.download')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
