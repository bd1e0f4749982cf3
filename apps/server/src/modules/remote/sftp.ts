import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import type { SftpEntry, SftpOpenBody, SftpSession } from '@fleetgate/shared/schemas/remote';
import type { FileEntryWithStats, SFTPWrapper, Client as SshClient, Stats } from 'ssh2';
import { AppError, badRequest, notFound } from '#src/http/errors';
import type { ServiceContext } from '../service-context';
import { type RemoteDevice, remoteService } from './remote.service';
import { connectSsh, sshWords } from './ssh-connect';
import type { TunnelHub } from './tunnel-hub';

/** A file browser nobody used for this long is closed, and its stream with it. */
export const SFTP_IDLE_MS = 10 * 60_000;
const MAX_FILE_WORDS = 'Maximum file size is 80 MB';

/** SFTP status codes (draft-ietf-secsh-filexfer-02 §7) a user can act on. */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

type OpenBrowser = {
  id: string;
  /** Whose it is: the console session that opened it, so no other session can use it. */
  owner: { userId: number; sessionId: string };
  device: RemoteDevice;
  client: SshClient;
  sftp: SFTPWrapper;
  idle: NodeJS.Timeout;
  end(reason: string): void;
};

/** File browsers open on this server, by their session's id. */
const browsers = new Map<string, OpenBrowser>();

const ownerOf = (ctx: ServiceContext) => ({
  userId: ctx.caller.principal.id,
  sessionId: String(ctx.caller.session.id),
});

/** An SFTP failure in words: what the device said, with the path it concerned. */
function deviceError(error: unknown, name: string): AppError {
  const code = (error as { code?: unknown }).code;
  const said = error instanceof Error && error.message ? error.message : 'The device refused';
  if (code === NO_SUCH_FILE) return AppError.of(404, 'NOT_FOUND', `No such file or folder: ${name}`);
  if (code === PERMISSION_DENIED) return AppError.of(403, 'FORBIDDEN', `Permission denied: ${name}`);
  return badRequest(`${said}: ${name}`);
}

const promised = <T>(
  name: string,
  run: (done: (error: Error | null | undefined, value?: T) => void) => void,
) =>
  new Promise<T>((resolve, reject) =>
    run((error, value) => (error ? reject(deviceError(error, name)) : resolve(value as T))),
  );

function typeOf(stats: Pick<Stats, 'isDirectory' | 'isFile' | 'isSymbolicLink'>): SftpEntry['type'] {
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'link';
  return stats.isFile() ? 'file' : 'other';
}

function permissions(mode: number) {
  return 'rwxrwxrwx'
    .split('')
    .map((c, i) => (mode & (0o400 >> i) ? c : '-'))
    .join('');
}

/** Bytes asked of the device per SFTP read, and reads kept in flight at once. */
const READ_CHUNK = 256 * 1024;
const READS_IN_FLIGHT = 8;

/**
 * A file of the device as a stream, read with several requests in flight, as OpenSSH's sftp
 * does: one read at a time would wait a round trip through the tunnel for every chunk.
 * Chunks are passed on in order; the stream ends at the file's end or fails with the device's
 * words.
 */
export function readAhead(sftp: SFTPWrapper, name: string, size: number): Readable {
  let handle: Buffer | undefined;
  let next = 0;
  let pending = 0;
  let done = false;
  const ready = new Map<number, Buffer>();
  let emitted = 0;
  const stream = new Readable({
    highWaterMark: READ_CHUNK * READS_IN_FLIGHT,
    read() {
      flush();
      pump();
    },
    destroy(error, callback) {
      done = true;
      if (handle) sftp.close(handle, () => callback(error));
      else callback(error);
    },
  });
  const flush = () => {
    for (let chunk = ready.get(emitted); chunk; chunk = ready.get(emitted)) {
      ready.delete(emitted);
      emitted += chunk.length;
      if (!stream.push(chunk)) break;
    }
    if (emitted >= size && !done) {
      done = true;
      stream.push(null);
    }
  };
  const pump = () => {
    if (!handle || done) return;
    while (pending < READS_IN_FLIGHT && next < size && ready.size < READS_IN_FLIGHT) {
      const position = next;
      const length = Math.min(READ_CHUNK, size - position);
      next += length;
      pending++;
      sftp.read(handle, Buffer.alloc(length), 0, length, position, (error, bytesRead, buffer) => {
        pending--;
        if (done) return;
        if (error || bytesRead < length)
          return stream.destroy(
            error ? deviceError(error, name) : badRequest(`The file changed while it was read: ${name}`),
          );
        ready.set(position, buffer.subarray(0, bytesRead));
        flush();
        pump();
      });
    }
    if (size === 0) flush();
  };
  sftp.open(name, 'r', (error, opened) => {
    if (error) return stream.destroy(deviceError(error, name));
    handle = opened;
    pump();
  });
  return stream;
}

/** Counts an upload's bytes and stops it past the product's file size limit (product §5). */
function sizeLimit(counted: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > MAX_FILE_SIZE_BYTES) return done(badRequest(MAX_FILE_WORDS, 'file'));
      done(null, chunk);
    },
  });
}

/**
 * The console's file browser (product §2 /rms-connect/sftp): SFTP to a device's SSH service
 * through a tunnel stream, kept open between requests and driven by the REST calls of
 * remote.routes.ts. Each browser is one session of the access history, metered like a terminal,
 * and belongs to the console session that opened it: any other caller gets 'not found'.
 */
export const sftpService = {
  async open(ctx: ServiceContext, hub: TunnelHub, body: SftpOpenBody): Promise<SftpSession> {
    const { device, target } = await remoteService.resolveTarget(ctx, body, 'sftp');
    if (target.protocol !== 'ssh' && target.protocol !== 'sftp')
      throw badRequest('The file browser opens ssh and sftp entries only', 'entry_id');
    const stream = await remoteService.openStream(ctx, hub, device, target).catch((error: unknown) => {
      throw error instanceof AppError ? error : badRequest((error as Error).message);
    });
    let browser: OpenBrowser | undefined;
    let ending = '';
    const end = (reason: string) => {
      ending ||= reason;
      browser?.client.end();
      stream.socket.destroy();
    };
    const session = await remoteService.recordSession(
      ctx,
      device,
      { ...target, protocol: 'sftp', login: body.username },
      stream,
      end,
    );
    stream.socket.once('close', () => {
      if (browser) {
        clearTimeout(browser.idle);
        browsers.delete(browser.id);
      }
      session.finish(ending || 'The connection to the device closed');
    });

    try {
      const { client, hostKey } = await connectSsh(ctx, device, target, stream, body);
      client.on('error', (error) => end(sshWords(error)));
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
        client.sftp((error, opened) => (error ? reject(error) : resolve(opened))),
      ).catch((error: Error) => {
        throw badRequest(`The device offers no SFTP: ${error.message}`);
      });
      void session.hostKey(hostKey);
      const home = await promised<string>('.', (done) => sftp.realpath('.', done)).catch(() => '/');
      browser = {
        id: session.id,
        owner: ownerOf(ctx),
        device,
        client,
        sftp,
        idle: setTimeout(() => end('Closed after 10 minutes without use'), SFTP_IDLE_MS),
        end,
      };
      browser.idle.unref();
      browsers.set(browser.id, browser);
      return { id: session.id, host_key: hostKey, home };
    } catch (error) {
      const words = error instanceof Error ? error.message : 'The device could not be reached';
      end(words);
      throw error instanceof AppError ? error : badRequest(words);
    }
  },

  /** The caller's open browser, its idle clock restarted. */
  use(ctx: ServiceContext, id: string): OpenBrowser {
    const browser = browsers.get(id);
    const owner = ownerOf(ctx);
    if (!browser || browser.owner.userId !== owner.userId || browser.owner.sessionId !== owner.sessionId)
      throw notFound('File browser');
    browser.idle.refresh();
    return browser;
  },

  async list(ctx: ServiceContext, id: string, folder: string): Promise<SftpEntry[]> {
    const { sftp } = this.use(ctx, id);
    const list = await promised<FileEntryWithStats[]>(folder, (done) => sftp.readdir(folder, done));
    return list
      .filter((entry) => entry.filename !== '.' && entry.filename !== '..')
      .map((entry) => ({
        name: entry.filename,
        path: path.posix.join(folder, entry.filename),
        type: typeOf(entry.attrs),
        size: entry.attrs.size,
        modified_at: new Date(entry.attrs.mtime * 1000),
        permissions: permissions(entry.attrs.mode),
      }))
      .sort((a, b) =>
        a.type === 'directory' && b.type !== 'directory'
          ? -1
          : b.type === 'directory' && a.type !== 'directory'
            ? 1
            : a.name.localeCompare(b.name),
      );
  },

  /** A file to download: its size, and a stream that reads it from the device. */
  async download(ctx: ServiceContext, id: string, name: string) {
    const { sftp } = this.use(ctx, id);
    const stats = await promised<Stats>(name, (done) => sftp.stat(name, done));
    if (stats.isDirectory()) throw badRequest(`A folder cannot be downloaded: ${name}`, 'path');
    return { size: stats.size, name: path.posix.basename(name), stream: readAhead(sftp, name, stats.size) };
  },

  /**
   * Writes an upload to the device as it arrives, stopping at 80 MB (product §5 file rules);
   * `declared` is the request's Content-Length, refused at once when above the limit. A
   * failed upload leaves no partial file behind.
   */
  async upload(ctx: ServiceContext, id: string, name: string, body: Readable, declared: number | undefined) {
    const { sftp } = this.use(ctx, id);
    if (declared !== undefined && declared > MAX_FILE_SIZE_BYTES) throw badRequest(MAX_FILE_WORDS, 'file');
    const counted = { bytes: 0 };
    const out = sftp.createWriteStream(name);
    try {
      await pipeline(body, sizeLimit(counted), out);
    } catch (error) {
      await promised<void>(name, (done) => sftp.unlink(name, done)).catch(() => {});
      throw error instanceof AppError ? error : deviceError(error, name);
    }
    return { path: name, size: counted.bytes };
  },

  async rename(ctx: ServiceContext, id: string, from: string, to: string) {
    const { sftp } = this.use(ctx, id);
    await promised<void>(from, (done) => sftp.rename(from, to, done));
    return { path: to };
  },

  async mkdir(ctx: ServiceContext, id: string, name: string) {
    const { sftp } = this.use(ctx, id);
    await promised<void>(name, (done) => sftp.mkdir(name, done));
    return { path: name };
  },

  /** Removes a file, or a folder when it is empty (as `rmdir` would: nothing is removed by surprise). */
  async remove(ctx: ServiceContext, id: string, name: string) {
    const { sftp } = this.use(ctx, id);
    const stats = await promised<Stats>(name, (done) => sftp.lstat(name, done));
    if (stats.isDirectory()) await promised<void>(name, (done) => sftp.rmdir(name, done));
    else await promised<void>(name, (done) => sftp.unlink(name, done));
    return { path: name };
  },

  close(ctx: ServiceContext, id: string) {
    this.use(ctx, id).end('The user closed the file browser');
    return { id };
  },
};
