import {
  CONNECT_TERMINAL_PATH,
  type RemoteProtocol,
  type TerminalNotice,
} from '@fleetgate/shared/devices/tunnel';
import type { FastifyInstance } from 'fastify';
import type { ClientChannel } from 'ssh2';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { ServiceContext } from '../service-context';
import { recordTerminal } from './recording';
import { type RemoteDevice, remoteService } from './remote.service';
import { connectSsh, sshWords } from './ssh-connect';
import { TelnetSession } from './telnet';
import type { TunnelHub, TunnelStream } from './tunnel-hub';
import { type ConnectTarget, serveConnect } from './upgrade';

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

/** How long the browser has to send its sign-in message. */
const AUTH_WAIT_MS = 15_000;
/** Bytes queued towards a slow browser before the device's shell is paused. */
const HIGH_WATER = 1024 * 1024;

const notice = (ws: WebSocket, message: TerminalNotice) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
};

/** What the terminal drives on the device, whichever protocol carries it. */
type DeviceShell = {
  write(data: Buffer): void;
  resize(cols: number, rows: number): void;
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  onData(listener: (chunk: Buffer) => void): void;
  onClose(listener: () => void): void;
  end(): void;
};

/** The protocols the terminal speaks; other entries are opened by their own screens. */
const TERMINAL_PROTOCOLS: readonly RemoteProtocol[] = ['ssh', 'telnet'];

/**
 * The console's terminal (product §2 /rms-connect/ssh and /rms-connect/telnet): a WebSocket
 * from the browser to CONNECT_TERMINAL_PATH, checked like the realtime socket (session cookie,
 * the console's own Origin) and by the right to reach the device (view_device_remote_access
 * and manage_devices, device in scope). The server speaks SSH (`ssh2`, host key pinned) or
 * telnet (telnet.ts: negotiation, window size, the login prompts answered) to the device
 * through a tunnel stream: text frames carry control messages (auth, resize; connected,
 * error, closed), binary frames the terminal's bytes.
 */
export function attachTerminalBridge(app: FastifyInstance, hub: TunnelHub) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });

  serveConnect(app, wss, CONNECT_TERMINAL_PATH, TERMINAL_PROTOCOLS, (ws, ctx, device, target) => {
    void terminal(ws, ctx, device, target);
  });

  async function terminal(ws: WebSocket, ctx: ServiceContext, device: RemoteDevice, target: ConnectTarget) {
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

    let shell: DeviceShell | undefined;
    let ending = '';
    const end = (reason: string) => {
      ending ||= reason;
      notice(ws, { type: 'closed', reason: ending });
      if (ws.readyState === ws.OPEN) ws.close(1000);
      shell?.end();
      stream.socket.destroy();
    };
    const session = await remoteService.recordSession(
      ctx,
      device,
      { ...target, login: auth.username },
      stream,
      end,
    );
    let recorder: ReturnType<typeof recordTerminal> | undefined;
    stream.socket.once('close', () => {
      recorder?.close();
      session.finish(ending || 'The connection to the device closed');
    });
    ws.on('close', () => {
      ending ||= 'The user closed the terminal';
      shell?.end();
      stream.socket.destroy();
    });
    ws.on('message', (data: RawData, binary) => {
      if (binary) {
        shell?.write(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer));
        return;
      }
      const resize = resizeMessageSchema.safeParse(parseJson(data));
      if (resize.success) {
        shell?.resize(resize.data.cols, resize.data.rows);
        recorder?.resize(resize.data.cols, resize.data.rows);
      }
    });

    const fail = (words: string) => {
      notice(ws, { type: 'error', message: words });
      end(words);
    };
    let hostKey = '';
    try {
      if (target.protocol === 'telnet') shell = telnetShell(stream, auth, fail);
      else ({ shell, hostKey } = await sshShell(ctx, device, target, stream, auth, fail));
    } catch (error) {
      return fail((error as Error).message);
    }
    if (hostKey) void session.hostKey(hostKey);
    const opened = shell;
    notice(ws, { type: 'connected', host_key: hostKey, session_id: session.id });
    recorder = recordTerminal(ctx.config.dataDir, session.id, {
      cols: auth.cols,
      rows: auth.rows,
      title: `${device.name} ${auth.username}@${target.host}:${target.port}`,
    });
    void session.recorded();
    opened.onData((chunk) => {
      recorder?.output(chunk);
      ws.send(chunk, { binary: true });
      // Backpressure: a browser that reads slowly pauses the device's output.
      if (ws.bufferedAmount > HIGH_WATER && !opened.isPaused()) {
        opened.pause();
        const wait = setInterval(() => {
          if (ws.bufferedAmount < HIGH_WATER / 4 || ws.readyState !== ws.OPEN) {
            clearInterval(wait);
            opened.resume();
          }
        }, 20);
      }
    });
    opened.onClose(() => end('The session ended'));
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

/** Signs in over SSH and opens a shell with a terminal of the browser's size. */
async function sshShell(
  ctx: ServiceContext,
  device: RemoteDevice,
  target: ConnectTarget,
  stream: TunnelStream,
  auth: { username: string; password: string; cols: number; rows: number },
  fail: (words: string) => void,
): Promise<{ shell: DeviceShell; hostKey: string }> {
  const { client, hostKey } = await connectSsh(ctx, device, target, stream, auth);
  client.on('error', (error) => fail(sshWords(error)));
  const channel = await new Promise<ClientChannel>((resolve, reject) =>
    client.shell({ term: 'xterm-256color', cols: auth.cols, rows: auth.rows }, (error, opened) =>
      error ? reject(new Error(`The device opened no shell: ${error.message}`)) : resolve(opened),
    ),
  ).catch((error: Error) => {
    client.end();
    throw error;
  });
  return {
    hostKey,
    shell: {
      write: (data) => channel.write(data),
      resize: (cols, rows) => channel.setWindow(rows, cols, 0, 0),
      pause: () => channel.pause(),
      resume: () => channel.resume(),
      isPaused: () => channel.isPaused(),
      onData: (listener) => channel.on('data', listener),
      onClose: (listener) => channel.on('close', listener),
      end: () => client.end(),
    },
  };
}

/**
 * A telnet session: the device asks for its login in band, so the user name and password
 * typed in the console answer its first prompts (a blank password is left for the user to type).
 */
function telnetShell(
  stream: TunnelStream,
  auth: { username: string; password: string; cols: number; rows: number },
  fail: (words: string) => void,
): DeviceShell {
  const telnet = new TelnetSession(stream.socket, {
    cols: auth.cols,
    rows: auth.rows,
    ...(auth.password ? { login: { username: auth.username, password: auth.password } } : {}),
  });
  telnet.on('error', (error) => fail(error.message));
  return {
    write: (data) => telnet.write(data),
    resize: (cols, rows) => telnet.resize(cols, rows),
    pause: () => telnet.pause(),
    resume: () => telnet.resume(),
    isPaused: () => telnet.isPaused(),
    onData: (listener) => telnet.on('data', listener),
    onClose: (listener) => telnet.on('close', listener),
    end: () => telnet.end(),
  };
}
