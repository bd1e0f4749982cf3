/** Test helper only: a socket.io-client stand-in for the channel hub and components. */
import type { ConsoleSocket } from './channel-hub';

export type Listener = (...args: unknown[]) => void;

/** Enough of a socket.io-client socket to drive the hub: records what it sends. */
export class FakeSocket {
  connected = false;
  connects = 0;
  sent: [string, ...unknown[]][] = [];
  private listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push([event, ...args]);
    return this;
  }
  connect() {
    this.connects += 1;
    return this;
  }
  disconnect() {
    this.connected = false;
    this.receive('disconnect', 'io client disconnect');
    return this;
  }
  /** The server side: an event arrives. */
  receive(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  open() {
    this.connected = true;
    this.receive('connect');
  }
  /** The server answers every subscribe sent so far (socket.io acknowledgements). */
  acknowledgeSubscriptions(result: unknown = { ok: true }) {
    for (const [event, , ack] of this.sent) {
      if (event === 'subscribe' && typeof ack === 'function') ack(result);
    }
  }
  subscriptions() {
    return this.sent.filter(([e]) => e === 'subscribe').map(([, c]) => c);
  }
  unsubscriptions() {
    return this.sent.filter(([e]) => e === 'unsubscribe').map(([, c]) => c);
  }
}

/** The fake as the hub's socket type. */
export const asConsoleSocket = (socket: FakeSocket) => socket as unknown as ConsoleSocket;
