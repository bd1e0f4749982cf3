import { CONNECT_DESKTOP_PATH, DESKTOP_CLOSE } from '@fleetgate/shared/devices/tunnel';
import type { FastifyInstance } from 'fastify';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { ServiceContext } from '../service-context';
import { type RemoteDevice, remoteService } from './remote.service';
import type { TunnelHub, TunnelStream } from './tunnel-hub';
import { type ConnectTarget, serveConnect } from './upgrade';

/** Bytes queued towards a slow browser before the device's desktop is paused. */
const HIGH_WATER = 4 * 1024 * 1024;
/** RFC 6143 §7.1.1: a server opens with "RFB xxx.yyy\n", 12 bytes. */
const RFB_VERSION = /^RFB \d{3}\.\d{3}\n$/;
const RFB_VERSION_BYTES = 12;
/** How long a VNC server has to greet once its stream is open. */
const GREETING_MS = 15_000;

/** A close frame's reason is at most 123 bytes (RFC 6455 §5.5). */
const closeWith = (ws: WebSocket, code: number, reason: string) => {
  if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING)
    ws.close(code, Buffer.from(reason).subarray(0, 123).toString());
};

/**
 * The console's desktop (product §2 /rms-connect/desktop): a WebSocket carrying RFB, from
 * noVNC in the browser to a VNC server on the device or its LAN, through a tunnel stream. The
 * server checks that the device answers as a VNC server before it passes a byte on, so a
 * device that answers anything else (a web page, a malformed handshake) ends only its own
 * session, in words; past that the bytes are the browser's and the device's.
 */
export function attachDesktopBridge(app: FastifyInstance, hub: TunnelHub) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    perMessageDeflate: false,
    // noVNC may offer the old 'binary' subprotocol; it is the only one there is.
    handleProtocols: (offered) => (offered.has('binary') ? 'binary' : false),
  });
  serveConnect(app, wss, CONNECT_DESKTOP_PATH, ['vnc'], (ws, ctx, device, target) => {
    void desktop(ws, ctx, device, target);
  });

  async function desktop(ws: WebSocket, ctx: ServiceContext, device: RemoteDevice, target: ConnectTarget) {
    // What the browser sends before the stream is open (its half of the handshake comes later).
    const early: Buffer[] = [];
    const keep = (data: RawData) =>
      early.push(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer));
    ws.on('message', keep);
    let stream: TunnelStream;
    try {
      stream = await remoteService.openStream(ctx, hub, device, target);
    } catch (error) {
      return closeWith(
        ws,
        DESKTOP_CLOSE.failed,
        error instanceof Error ? error.message : 'The device could not be reached',
      );
    }
    if (ws.readyState !== ws.OPEN) {
      stream.socket.destroy();
      return;
    }
    let ending = '';
    const end = (reason: string, code: number = DESKTOP_CLOSE.ended) => {
      ending ||= reason;
      closeWith(ws, code, ending);
      stream.socket.destroy();
    };
    const session = await remoteService.recordSession(ctx, device, target, stream, end);
    stream.socket.once('close', () => {
      session.finish(ending || 'The connection to the device closed');
      closeWith(ws, DESKTOP_CLOSE.ended, ending || 'The connection to the device closed');
    });
    stream.socket.on('error', () => {});
    ws.on('close', () => {
      ending ||= 'The user closed the desktop';
      stream.socket.destroy();
    });

    let greeted = false;
    let greeting = Buffer.alloc(0);
    const silent = setTimeout(
      () => end('The device did not answer as a VNC server', DESKTOP_CLOSE.failed),
      GREETING_MS,
    );
    stream.socket.once('close', () => clearTimeout(silent));
    stream.socket.on('data', (chunk: Buffer) => {
      if (!greeted) {
        greeting = Buffer.concat([greeting, chunk]);
        if (greeting.length < RFB_VERSION_BYTES) return;
        if (!RFB_VERSION.test(greeting.subarray(0, RFB_VERSION_BYTES).toString('latin1')))
          return end('The device did not answer as a VNC server', DESKTOP_CLOSE.failed);
        greeted = true;
        clearTimeout(silent);
        chunk = greeting;
      }
      ws.send(chunk, { binary: true });
      // Backpressure: a browser that draws slowly pauses the device's desktop.
      if (ws.bufferedAmount > HIGH_WATER && !stream.socket.isPaused()) {
        stream.socket.pause();
        const wait = setInterval(() => {
          if (ws.bufferedAmount < HIGH_WATER / 4 || ws.readyState !== ws.OPEN) {
            clearInterval(wait);
            stream.socket.resume();
          }
        }, 20);
      }
    });
    ws.off('message', keep);
    for (const data of early) stream.socket.write(data);
    ws.on('message', (data: RawData) => {
      stream.socket.write(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer));
    });
  }

  return {
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
