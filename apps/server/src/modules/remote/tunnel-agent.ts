import { type ClientRequest, Agent as HttpAgent } from 'node:http';
import type { Duplex } from 'node:stream';
import { connect as connectTls } from 'node:tls';

/** How long a kept connection to the device may sit unused before its stream is closed. */
const FREE_STREAM_MS = 30_000;
/** Streams one proxied page may use at once: a browser's own limit per origin. */
const MAX_STREAMS = 6;

/**
 * What a net.Socket offers that an HTTP agent calls on its connections; a tunnel stream is a
 * plain Duplex, which has none of it. Keep-alive and delays are the tunnel's business.
 */
function socketLike(stream: Duplex): Duplex {
  return Object.assign(stream, {
    setKeepAlive: () => stream,
    setNoDelay: () => stream,
    setTimeout: () => stream,
    ref: () => stream,
    unref: () => stream,
  });
}

/**
 * An HTTP agent whose connections are tunnel streams to one device service (web-proxy.ts):
 * `open` asks the device for a new stream, and an idle one is kept for the next request as a
 * browser keeps its connections. For https the TLS session runs inside the stream, to the
 * device: devices carry self-signed certificates that nobody could have pinned beforehand, so
 * the certificate is not verified (the tunnel itself is authenticated by the device's secret
 * and carried over the server's own connection), and no SNI is sent (entries are addresses).
 */
export class TunnelAgent extends HttpAgent {
  private readonly idle = new Map<Duplex, NodeJS.Timeout>();

  constructor(
    private readonly open: () => Promise<Duplex>,
    private readonly tls: boolean,
  ) {
    super({ keepAlive: true, maxSockets: MAX_STREAMS, maxFreeSockets: MAX_STREAMS });
  }

  override createConnection(
    _options: unknown,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const done = callback ?? (() => {});
    this.open().then(
      (stream) => {
        if (!this.tls) return done(null, socketLike(stream));
        const secured = connectTls({ socket: stream, rejectUnauthorized: false });
        const failed = (error: Error) => {
          stream.destroy();
          done(new Error(`TLS with the device failed: ${error.message}`), undefined as unknown as Duplex);
        };
        secured.once('error', failed);
        secured.once('secureConnect', () => {
          secured.off('error', failed);
          done(null, secured);
        });
        // The TLS socket ends when its stream does (the device or the server closed it).
        stream.once('close', () => secured.destroy());
      },
      (error: Error) => done(error, undefined as unknown as Duplex),
    );
    return undefined;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    const timer = setTimeout(() => {
      this.idle.delete(socket);
      socket.destroy();
    }, FREE_STREAM_MS);
    timer.unref();
    this.idle.set(socket, timer);
    return true;
  }

  override reuseSocket(socket: Duplex, request: ClientRequest): void {
    clearTimeout(this.idle.get(socket));
    this.idle.delete(socket);
    super.reuseSocket(socket, request);
  }

  override destroy(): void {
    for (const timer of this.idle.values()) clearTimeout(timer);
    this.idle.clear();
    super.destroy();
  }
}
