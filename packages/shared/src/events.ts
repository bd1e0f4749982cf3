import type { DeviceRealtimeEventMap } from './devices/events';
import type { WebNotification } from './schemas/notifications';

/**
 * Typed socket event maps (CONVENTIONS: realtime events are typed maps with one handler
 * per event). The socket lives at `/status/socket.io` (product §7, ARCHITECTURE §1).
 *
 * A browser subscribes to channels; the server authorises each one. Events published on
 * a channel arrive as `(channel, payload)`, so one socket can carry many channels and a
 * listener picks its own.
 */

/** Channels and the pattern of their names. */
export const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

/** The user's own notifications channel (product §4 Socket). */
export const notificationsChannel = (userId: number) => `private-notifications.${userId}`;

/**
 * Progress of one piece of device work started by a mutation that answered with
 * `meta.channel` (ARCHITECTURE §4, product §4 'Action status').
 */
export const actionChannel = (id: string | number) => `action.${id}`;

/**
 * Events published on channels, with their payload. A feature adds its events here:
 * the devices feature brings its action progress, status, telemetry and event pushes.
 */
export type ChannelEvents = {
  /** A notification was stored for the channel's user (product §7 Notifications). */
  WebNotificationCreated: WebNotification;
} & DeviceRealtimeEventMap;
export type ChannelEventName = keyof ChannelEvents;

/** Why a subscription was refused (product §4: code 403 makes the client unsubscribe). */
export type SubscriptionError = { code: 400 | 403; message: string };

/** The answer to `subscribe` when the client asks for an acknowledgement. */
export type SubscribeAck = { ok: true } | ({ ok: false } & SubscriptionError);

/** Events the browser sends (product §7: subscribe and unsubscribe with a channel). */
export type ClientToServerEvents = {
  subscribe: (channel: string, ack?: (result: SubscribeAck) => void) => void;
  unsubscribe: (channel: string, ack?: (result: { ok: true }) => void) => void;
};

/** Events the server sends: every channel event as `(channel, payload)`, plus refusals. */
export type ServerToClientEvents = {
  [E in ChannelEventName]: (channel: string, payload: ChannelEvents[E]) => void;
} & {
  subscription_error: (channel: string, error: SubscriptionError) => void;
};

/** What the handshake refusal carries in `connect_error`'s `data`. */
export type ConnectErrorData = { code: 401 | 403; message: string };
