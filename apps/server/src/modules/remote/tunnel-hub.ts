import { randomBytes, randomUUID } from 'node:crypto';
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  STREAM_OPEN_SECONDS,
  STREAM_TOKEN_BYTES,
  TUNNEL_HEADERS,
  TUNNEL_PATH,
} from '@fleetgate/shared/devices/tunnel';
import type { FastifyBaseLogger } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { digest, safeEqual } from '#src/auth/tokens';
import { refuseUpgrade } from './upgrade';

/** Where a stream goes on the device's side: the device itself or a host of its LAN. */
export type StreamTarget = { host: string; port: number };

/** A stream the device connected: its bytes both ways, counted as they pass. */
export type TunnelStream = {
  id: string;
  socket: Duplex;
  /** Bytes sent to the device and received from it so far. */
  bytes(): { to_device: number; from_device: number };
};

/** How the device that owns a stream proves itself (its secret's digest, as the gateway keeps it). */
export type TunnelIdentity = (
  serial: string,
) => Promise<{ id: number; secretHash: string | null } | undefined>;

type Pending = {
  deviceId: number;
  serial: string;
  tokenHash: string;
  resolve(stream: TunnelStream): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
};

/** A stream the device did not connect in time, or refused. */
export class StreamNotOpened extends Error {}

const streamIdOf = (request: IncomingMessage) =>
  new URL(request.url ?? '/', 'http://tunnel').searchParams.get('stream') ?? '';

/** Largest WebSocket message a tunnel accepts: a TCP read is never bigger than this. */
const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * The server's side of device tunnels (docs/device-protocol.md §7). `expect` registers a
 * stream the server is about to ask a device for: an id and a single-use token, bound to that
 * device. The device then connects a WebSocket to TUNNEL_PATH with its serial, its secret and
 * the token; anything else (an unknown or used stream, another device's token, a wrong
 * secret) is refused before the upgrade with 401, and the waiting side learns nothing. Each
 * stream is its own WebSocket, so a slow one never holds up another, and `ws`'s stream
 * applies TCP backpressure both ways.
 */
export function createTunnelHub(deps: { identity: TunnelIdentity; log: FastifyBaseLogger }) {
  const pending = new Map<string, Pending>();
  /** The stream each `open_stream` command is for, until the command ends. */
  const byBatch = new Map<string, string>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });

  async function admit(request: IncomingMessage): Promise<Pending | undefined> {
    const streamId = streamIdOf(request);
    const serial = String(request.headers[TUNNEL_HEADERS.serial] ?? '');
    const secret = String(request.headers[TUNNEL_HEADERS.secret] ?? '');
    const token = String(request.headers[TUNNEL_HEADERS.token] ?? '');
    const waiting = pending.get(streamId);
    if (!waiting || !token || !secret) return undefined;
    // The token is single-use whatever happens next: a second try with it finds nothing.
    if (waiting.serial !== serial || !safeEqual(digest(token), waiting.tokenHash)) return undefined;
    pending.delete(streamId);
    clearTimeout(waiting.timer);
    const device = await deps.identity(serial);
    if (
      !device ||
      device.id !== waiting.deviceId ||
      !device.secretHash ||
      !safeEqual(digest(secret), device.secretHash)
    ) {
      waiting.reject(new StreamNotOpened('The device could not prove who it is'));
      return undefined;
    }
    return waiting;
  }

  return {
    /**
     * Registers a stream for a device and answers the parameters of its `open_stream`
     * command, and the stream once the device connects it (or an error after
     * STREAM_OPEN_SECONDS).
     */
    expect(device: { id: number; serial: string }, target: StreamTarget, tunnelUrl: string) {
      const id = randomUUID();
      const token = randomBytes(STREAM_TOKEN_BYTES).toString('base64url');
      const opened = new Promise<TunnelStream>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new StreamNotOpened('The device did not open the connection in time'));
        }, STREAM_OPEN_SECONDS * 1000);
        timer.unref();
        pending.set(id, {
          deviceId: device.id,
          serial: device.serial,
          tokenHash: digest(token),
          resolve,
          reject,
          timer,
        });
      });
      // Nobody may be waiting when the command fails first; the rejection is still handled.
      opened.catch(() => {});
      const url = new URL(TUNNEL_PATH, tunnelUrl);
      url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
      url.searchParams.set('stream', id);
      return {
        id,
        params: { stream: id, token, host: target.host, port: target.port, url: url.toString() },
        opened,
      };
    },

    /** Ties a stream to the command that asks for it, so that the command's failure ends the wait. */
    watch(batchId: string, streamId: string) {
      if (pending.has(streamId)) byBatch.set(batchId, streamId);
    },

    /** A command ended (deviceTaps.commandEnded): a failed, expired or cancelled ask ends its wait. */
    commandEnded(batchId: string, update?: { status: string; error?: string | null }) {
      const streamId = byBatch.get(batchId);
      if (streamId === undefined) return;
      byBatch.delete(batchId);
      if (update && update.status !== 'done')
        this.cancel(streamId, update.error || `The device did not open the connection (${update.status})`);
    },

    /** Gives up on a stream before its device connects it (the command failed). */
    cancel(id: string, reason: string) {
      const waiting = pending.get(id);
      if (!waiting) return;
      pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.reject(new StreamNotOpened(reason));
    },

    /** Takes the tunnel's upgrades on the HTTP server. */
    attach(server: HttpServer) {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if ((request.url ?? '').split('?')[0] !== TUNNEL_PATH) return;
        admit(request).then(
          (waiting) => {
            if (!waiting) return refuseUpgrade(socket, 401, 'Unauthorized');
            const id = streamIdOf(request);
            wss.handleUpgrade(request, socket, head, (ws) => {
              const stream = createWebSocketStream(ws);
              // A stream ends when either side ends it: the device's service or the user.
              stream.on('error', (error) => deps.log.debug({ err: error }, 'tunnel stream error'));
              // Metered as relayed on the wire: the device's TCP connection counts both ways.
              const wire = socket as Duplex & { bytesRead?: number; bytesWritten?: number };
              waiting.resolve({
                id,
                socket: stream,
                bytes: () => ({ to_device: wire.bytesWritten ?? 0, from_device: wire.bytesRead ?? 0 }),
              });
            });
          },
          (error: unknown) => {
            deps.log.warn({ err: error }, 'tunnel upgrade failed');
            refuseUpgrade(socket, 500, 'Internal Server Error');
          },
        );
      });
    },

    /** Ends every stream (the server is closing) and every wait. */
    close() {
      byBatch.clear();
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new StreamNotOpened('The server is shutting down'));
        pending.delete(id);
      }
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },

    /** Streams asked for and not yet connected (tests, metrics). */
    waiting: () => pending.size,
  };
}

export type TunnelHub = ReturnType<typeof createTunnelHub>;
