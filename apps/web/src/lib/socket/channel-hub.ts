import type {
  ChannelEventName,
  ChannelEvents,
  ClientToServerEvents,
  ConnectErrorData,
  ServerToClientEvents,
  SubscribeAck,
  SubscriptionError,
} from '@fleetgate/shared/events';
import type { Socket } from 'socket.io-client';

/** How long the socket stays open after its last listener left. */
const CLOSE_DELAY_MS = 1000;

export type ConsoleSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ChannelHandler<E extends ChannelEventName> = (payload: ChannelEvents[E]) => void;

type Options = {
  /**
   * Makes the socket, not yet connected (tests pass a fake); a promise of it when its library
   * loads on demand, so that no page waits for it before it draws.
   */
  createSocket(): ConsoleSocket | Promise<ConsoleSocket>;
  /** Renews the session cookie after the handshake was refused with 401 (lib/http/refresh). */
  refreshSession(): Promise<boolean>;
  /** Where refusals are reported (the console logs them). */
  onRefused?(channel: string, error: SubscriptionError): void;
};

/**
 * One socket for the whole console, shared by every listener. Channels are counted: the
 * first listener subscribes, the last one to leave unsubscribes, and the socket itself is
 * opened with the first channel and closed with the last (so signing out, which unmounts
 * the header, closes it). Subscriptions are sent again after every (re)connection, since
 * the server forgets them with the old connection.
 */
export class ChannelHub {
  private socket: ConsoleSocket | null = null;
  /** A socket asked for and not yet made; dropped when the hub closes before it comes. */
  private pending: Promise<ConsoleSocket> | null = null;
  /** channel → event → handlers. */
  private readonly listeners = new Map<string, Map<string, Set<(payload: never) => void>>>();
  /** Channels the server refused with 403: not asked again until every listener left (product §4). */
  private readonly refused = new Set<string>();
  /** Events whose single dispatcher is attached to the socket. */
  private readonly dispatching = new Set<string>();
  /** Channels the server confirmed on the current connection. */
  private readonly live = new Set<string>();
  private readonly watchers = new Set<() => void>();
  private refreshTried = false;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private stopOnlineRetry: (() => void) | undefined;

  constructor(private readonly options: Options) {}

  /** Listens to `event` on `channel`; the returned function stops listening. */
  listen<E extends ChannelEventName>(channel: string, event: E, handler: ChannelHandler<E>): () => void {
    clearTimeout(this.closeTimer);
    this.ensureSocket();
    let events = this.listeners.get(channel);
    const isNewChannel = !events;
    if (!events) {
      events = new Map();
      this.listeners.set(channel, events);
    }
    let handlers = events.get(event);
    if (!handlers) {
      handlers = new Set();
      events.set(event, handlers);
    }
    handlers.add(handler as (payload: never) => void);
    this.attachDispatcher(event);
    if (isNewChannel && this.socket?.connected) this.subscribe(this.socket, channel);

    return () => {
      const current = this.listeners.get(channel);
      const set = current?.get(event);
      if (!current || !set) return;
      set.delete(handler as (payload: never) => void);
      if (set.size === 0) current.delete(event);
      if (current.size > 0) return;
      this.listeners.delete(channel);
      this.setLive(channel, false);
      if (!this.refused.delete(channel) && this.socket?.connected) this.socket.emit('unsubscribe', channel);
      // Deferred: a screen that remounts at once (React strict mode, a re-keyed page) keeps the socket.
      if (this.listeners.size === 0) this.closeTimer = setTimeout(() => this.closeIfIdle(), CLOSE_DELAY_MS);
    };
  }

  /** True while the server has confirmed the subscription to `channel` on the open connection. */
  isLive(channel: string): boolean {
    return this.live.has(channel);
  }

  /** Calls `watcher` whenever a channel becomes live or stops being live (useSyncExternalStore). */
  watch = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  };

  /** Channels currently wanted (and not refused). */
  channels(): string[] {
    return [...this.listeners.keys()].filter((c) => !this.refused.has(c));
  }

  private closeIfIdle(): void {
    if (this.listeners.size === 0) this.close();
  }

  /** Drops the socket and every listener. */
  close(): void {
    clearTimeout(this.closeTimer);
    this.stopOnlineRetry?.();
    this.listeners.clear();
    this.refused.clear();
    this.dispatching.clear();
    this.clearLive();
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    this.pending = null;
  }

  private ensureSocket(): void {
    if (this.socket || this.pending) return;
    const made = this.options.createSocket();
    if (!(made instanceof Promise)) {
      this.open(made);
      return;
    }
    const pending = made;
    this.pending = pending;
    pending.then(
      (socket) => {
        // A hub closed meanwhile (every listener left, or signed out) no longer wants it.
        if (this.pending !== pending) return;
        this.pending = null;
        this.open(socket);
      },
      (error: unknown) => {
        if (this.pending === pending) this.pending = null;
        console.warn('The live updates could not start:', error);
      },
    );
  }

  /** Wires a new socket to the listeners there are (some came before it) and connects it. */
  private open(socket: ConsoleSocket): void {
    this.socket = socket;
    for (const events of this.listeners.values())
      for (const event of events.keys()) this.attachDispatcher(event as ChannelEventName);
    socket.on('connect', () => {
      this.refreshTried = false;
      for (const channel of this.channels()) this.subscribe(socket, channel);
    });
    socket.on('disconnect', () => this.clearLive());
    socket.on('subscription_error', (channel, error) => {
      this.options.onRefused?.(channel, error);
      // product §4: a subscription_error with code 403 unsubscribes.
      if (error.code === 403 && this.listeners.has(channel)) {
        this.refused.add(channel);
        this.setLive(channel, false);
        socket.emit('unsubscribe', channel);
      }
    });
    socket.on('connect_error', (error) => {
      const data = (error as Error & { data?: ConnectErrorData }).data;
      // The access cookie lives minutes; the socket renews it the way HTTP calls do, once.
      if (data?.code !== 401 || this.refreshTried) return;
      this.refreshTried = true;
      void this.options.refreshSession().then((ok) => {
        if (ok && this.socket === socket) socket.connect();
      });
    });
    // After socket.io's own attempts are spent (product §9: 5), a browser back online tries again.
    if (typeof window !== 'undefined') {
      const retry = () => {
        if (!socket.connected) socket.connect();
      };
      window.addEventListener('online', retry);
      this.stopOnlineRetry = () => window.removeEventListener('online', retry);
    }
    socket.connect();
  }

  private subscribe(socket: ConsoleSocket, channel: string): void {
    socket.emit('subscribe', channel, (ack: SubscribeAck) => {
      if (ack?.ok && this.socket === socket && this.listeners.has(channel)) this.setLive(channel, true);
    });
  }

  private setLive(channel: string, live: boolean): void {
    if (this.live.has(channel) === live) return;
    if (live) this.live.add(channel);
    else this.live.delete(channel);
    for (const watcher of this.watchers) watcher();
  }

  private clearLive(): void {
    for (const channel of [...this.live]) this.setLive(channel, false);
  }

  /** One dispatcher per event name (CONVENTIONS: one handler per event, no long switch). */
  private attachDispatcher(event: ChannelEventName): void {
    if (!this.socket || this.dispatching.has(event)) return;
    this.dispatching.add(event);
    const dispatch = (channel: string, payload: unknown) => {
      for (const handler of this.listeners.get(channel)?.get(event) ?? []) handler(payload as never);
    };
    (this.socket.on as (event: string, listener: (...args: unknown[]) => void) => ConsoleSocket)(
      event,
      dispatch as (...args: unknown[]) => void,
    );
  }
}
