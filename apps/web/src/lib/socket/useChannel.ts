import type { ChannelEventName } from '@fleetgate/shared/events';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ChannelHandler, ChannelHub } from './channel-hub';
import { channelHub } from './socket';

/**
 * Calls `handler` for every `event` published on `channel` while the component is
 * mounted, and answers whether the subscription is live (confirmed by the server on the
 * open connection). A null channel listens to nothing (e.g. before the user is known).
 * The latest handler is used without resubscribing.
 */
export function useChannel<E extends ChannelEventName>(
  channel: string | null | undefined,
  event: E,
  handler: ChannelHandler<E>,
  hub: ChannelHub = channelHub,
): boolean {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!channel) return;
    return hub.listen(channel, event, (payload) => latest.current(payload));
  }, [channel, event, hub]);
  const isLive = useCallback(() => (channel ? hub.isLive(channel) : false), [channel, hub]);
  return useSyncExternalStore(hub.watch, isLive, () => false);
}
