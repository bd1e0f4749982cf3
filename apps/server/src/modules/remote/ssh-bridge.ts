import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CONNECT_SSH_PATH, type RemoteProtocol, type TerminalNotice } from '@fleetgate/shared/devices/tunnel';
import type { FastifyInstance } from 'fastify';
import { type ClientChannel, Client as SshClient } from 'ssh2';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { AppError } from '#src/http/errors';
import { identify, socketOriginAllowed } from '#src/realtime/handshake';
import { type ServiceContext, upgradeContext } from '../service-context';
import { recordTerminal } from './recording';
import { REMOTE_SESSION_PERMISSIONS, type RemoteDevice, remoteService } from './remote.service';
import type { TunnelHub, TunnelStream } from './tunnel-hub';
import { refuseUpgrade } from './upgrade';

/** The first message of a terminal WebSocket: who to sign in to the device as, and the window. */
const authMessageSchema = z.strictObject({
  type: z.literal('auth'),
  username: z.string().min(1).max(64),
  password: z.string().max(256),
  cols: z.number().int().min(10).max(500),
  rows: z.number().int().min(2).max(300),
});
const resizeMessageSchema = z.strictObject({
  type: z.literal('resize'),
  cols: z.number().int().min(10).max(500),
  rows: z.number().int().min(2).max(300),
});

/** How long the browser has to send its sign-in message, and SSH to get ready. */
const AUTH_WAIT_MS = 15_000;
/** Bytes queued towards a slow browser before the device's shell is paused. */
const HIGH_WATER = 1024 * 1024;

const notice = (ws: WebSocket, message: TerminalNotice) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
};

/** The SHA-256 fingerprint of a host key, as OpenSSH prints it. */
type Target = { host: string; port: number; protocol: RemoteProtocol; entryId: number | null };

const fingerprint = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/**
 * The console's terminal (product §2 /rms-connect/ssh): a WebSocket from the browser to
 * CONNECT_SSH_PATH, checked like the realtime socket (session cookie, the console's own
 * Origin) and by the right to reach the device (view_device_remote_access and
 * manage_devices, device in scope). The server speaks SSH (`ssh2`) to the device through a tunnel stream: text frames
 * carry control messages (auth, resize; connected, error, closed), binary frames the
 * terminal's bytes.
 */
export function attachSshBridge(app: FastifyInstance, hub: TunnelHub) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });

  type Admission =
    | { ok: false; status: number; text: string }
    | { ok: true; ctx: ServiceContext; device: RemoteDevice; target: Target };

  async function admit(request: IncomingMessage): Promise<Admission> {
    if (!socketOriginAllowed(request, app.config.publicUrl))
      return { ok: false, status: 403, text: 'Forbidden' };
    const caller = await identify(app, request);
    if (!caller) return { ok: false, status: 401, text: 'Unauthorized' };
    // Opening a session is an action on the device: a role that may only look (the guests) sees
    // remote access but never opens it (docs/decisions.md, Remote access).
    if (!REMOTE_SESSION_PERMISSIONS.every((p) => caller.principal.permissions.includes(p)))
      return { ok: false, status: 403, text: 'Forbidden' };
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const number = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
    const port = number('port');
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65_535))
      return { ok: false, status: 400, text: 'Bad Request' };
    const ctx = upgradeContext(app, request, caller);
    try {
      const { device, target } = await remoteService.resolveTarget(ctx, {
        device_id: number('device_id'),
        entry_id: number('entry_id'),
        port,
      });
      // The terminal speaks SSH: an entry of another protocol is opened by its own screen.
      if (target.protocol !== 'ssh') return { ok: false, status: 400, text: 'Bad Request' };
      return { ok: true, ctx, device, target };
    } catch (error) {
      if (error instanceof AppError)
        return error.status === 409
          ? { ok: false, status: 409, text: 'Conflict' }
          : { ok: false, status: 404, text: 'Not Found' };
      throw error;
    }
  }

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? '').split('?')[0] !== CONNECT_SSH_PATH) return;
    admit(request).then(
      (admitted) => {
        if (!admitted.ok) return refuseUpgrade(socket, admitted.status, admitted.text);
        wss.handleUpgrade(request, socket, head, (ws) => {
          void terminal(ws, admitted.ctx, admitted.device, admitted.target);
        });
      },
      (error: unknown) => {
        app.log.warn({ err: error }, 'terminal upgrade failed');
        refuseUpgrade(socket, 500, 'Internal Server Error');
      },
    );
  });

  async function terminal(ws: WebSocket, ctx: ServiceContext, device: RemoteDevice, target: Target) {
    const auth = await new Promise<z.infer<typeof authMessageSchema> | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), AUTH_WAIT_MS);
      ws.once('message', (data, binary) => {
        clearTimeout(timer);
        const parsed = binary ? undefined : authMessageSchema.safeParse(parseJson(data));
        resolve(parsed?.success ? parsed.data : undefined);
      });
      ws.once('close', () => resolve(undefined));
    });
    if (!auth) {
      notice(ws, { type: 'error', message: 'Enter the user name and password to sign in to the device' });
      return ws.close(1008);
    }

    let stream: TunnelStream;
    try {
      stream = await remoteService.openStream(ctx, hub, device, target);
    } catch (error) {
      notice(ws, {
        type: 'error',
        message: error instanceof Error ? error.message : 'The device could not be reached',
      });
      return ws.close(1011);
    }
    if (ws.readyState !== ws.OPEN) {
      // The user left while the device was opening the stream.
      stream.socket.destroy();
      return;
    }

    const ssh = new SshClient();
    let channel: ClientChannel | undefined;
    let ending = '';
    const end = (reason: string) => {
      ending ||= reason;
      notice(ws, { type: 'closed', reason: ending });
      if (ws.readyState === ws.OPEN) ws.close(1000);
      ssh.end();
      stream.socket.destroy();
    };
    const session = await remoteService.recordSession(
      ctx,
      device,
      { ...target, login: auth.username },
      stream,
      end,
    );
    stream.socket.once('close', () => session.finish(ending || 'The connection to the device closed'));
    ws.on('close', () => {
      ending ||= 'The user closed the terminal';
      ssh.end();
      stream.socket.destroy();
    });
    ssh.on('error', (error) => {
      // A refused host key has already been told, in its own words.
      if (ending) return end(ending);
      const words = /authentication/i.test(error.message)
        ? 'The device refused the user name or password'
        : error.message.startsWith('The device')
          ? error.message
          : `SSH failed: ${error.message}`;
      notice(ws, { type: 'error', message: words });
      end(words);
    });
    let hostKey = '';
    let recorder: ReturnType<typeof recordTerminal> | undefined;
    stream.socket.once('close', () => recorder?.close());
    ssh.on('ready', () => {
      ssh.shell({ term: 'xterm-256color', cols: auth.cols, rows: auth.rows }, (error, shell) => {
        if (error) {
          notice(ws, { type: 'error', message: `The device opened no shell: ${error.message}` });
          return end('The device opened no shell');
        }
        channel = shell;
        notice(ws, { type: 'connected', host_key: hostKey, session_id: session.id });
        recorder = recordTerminal(ctx.config.dataDir, session.id, {
          cols: auth.cols,
          rows: auth.rows,
          title: `${device.name} ${auth.username}@${target.host}:${target.port}`,
        });
        void session.recorded();
        shell.on('data', (chunk: Buffer) => {
          recorder?.output(chunk);
          ws.send(chunk, { binary: true });
          // Backpressure: a browser that reads slowly pauses the device's output.
          if (ws.bufferedAmount > HIGH_WATER && !shell.isPaused()) {
            shell.pause();
            const wait = setInterval(() => {
              if (ws.bufferedAmount < HIGH_WATER / 4 || ws.readyState !== ws.OPEN) {
                clearInterval(wait);
                shell.resume();
              }
            }, 20);
          }
        });
        shell.on('close', () => end('The session ended'));
      });
    });
    ws.on('message', (data: RawData, binary) => {
      if (binary) {
        channel?.write(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer));
        return;
      }
      const resize = resizeMessageSchema.safeParse(parseJson(data));
      if (resize.success) {
        channel?.setWindow(resize.data.rows, resize.data.cols, 0, 0);
        recorder?.resize(resize.data.cols, resize.data.rows);
      }
    });
    ssh.connect({
      sock: stream.socket,
      username: auth.username,
      password: auth.password,
      readyTimeout: AUTH_WAIT_MS,
      // Trust on first use, as OpenSSH's known_hosts: another key later stops the session.
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        hostKey = fingerprint(key);
        remoteService.verifyHostKey(ctx, device, target, hostKey).then(
          (same) => {
            if (!same) {
              const words = `The device's host key has changed (now ${hostKey}); the session was stopped`;
              notice(ws, { type: 'error', message: words });
              ending = words;
            } else void session.hostKey(hostKey);
            verify(same);
          },
          () => verify(false),
        );
      },
    });
  }

  return {
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function parseJson(data: RawData): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return undefined;
  }
}
