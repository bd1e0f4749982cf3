import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import ssh2, { type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** Directory entries answered per READDIR: OpenSSH asks again until EOF. */
const READDIR_BATCH = 100;
/** The largest READ a client may ask for; more is answered in several. */
const MAX_READ = 256 * 1024;

/** A request the folder refuses: its SFTP status and the words the client shows. */
class Refused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const outside = () =>
  new Refused(STATUS_CODE.PERMISSION_DENIED, 'Permission denied: outside the device folder');

/**
 * The device's file system as SFTP sees it: a folder of this machine seen as `/`, as a chroot
 * would. Every path a client names is resolved against `/` (so `..` stops at the top and an
 * absolute path stays inside), a NUL byte is refused, and the real path of what it reaches,
 * symlinks followed, must still be inside the folder: a link that points out is refused.
 */
export class DeviceFolder {
  private constructor(
    readonly root: string,
    private readonly realRoot: string,
  ) {}

  static async open(root: string): Promise<DeviceFolder> {
    await fs.mkdir(root, { recursive: true });
    return new DeviceFolder(root, await fs.realpath(root));
  }

  /** The client's path as the device names it: absolute, normalised, never above `/`. */
  virtual(name: string): string {
    if (name.includes('\0')) throw new Refused(STATUS_CODE.BAD_MESSAGE, 'Invalid path');
    return path.posix.resolve('/', name || '.');
  }

  private within(real: string) {
    return real === this.realRoot || real.startsWith(this.realRoot + path.sep);
  }

  /**
   * The path on this machine for a client's path. `follow` resolves a final symlink too (open,
   * stat); without it the link itself is named (lstat, remove, rename). Either way every
   * directory on the way must resolve inside the folder.
   */
  async real(name: string, follow = true): Promise<string> {
    const virtual = this.virtual(name);
    if (virtual === '/') return this.realRoot;
    const local = path.join(this.root, virtual);
    const parent = await fs.realpath(path.dirname(local)).catch(() => undefined);
    if (parent === undefined) throw new Refused(STATUS_CODE.NO_SUCH_FILE, 'No such file or directory');
    if (!this.within(parent)) throw outside();
    const named = path.join(parent, path.basename(local));
    if (!follow) return named;
    const target = await fs.realpath(named).catch(() => undefined);
    // A path that does not exist yet (a file being created) is checked through its directory.
    if (target !== undefined && !this.within(target)) throw outside();
    return target ?? named;
  }
}

function attrsOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: 0,
    gid: 0,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

/** `ls -l` style, which OpenSSH's sftp prints for `ls -l`. */
function longname(name: string, stats: Stats) {
  const type = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : '-';
  const bits = 'rwxrwxrwx'
    .split('')
    .map((c, i) => (stats.mode & (0o400 >> i) ? c : '-'))
    .join('');
  const date = stats.mtime.toUTCString().slice(5, 22);
  return `${type}${bits}    1 root     root     ${String(stats.size).padStart(8)} ${date} ${name}`;
}

function openFlags(flags: number): number {
  let mode = 0;
  const read = flags & OPEN_MODE.READ;
  const write = flags & OPEN_MODE.WRITE;
  mode |= read && write ? constants.O_RDWR : write ? constants.O_WRONLY : constants.O_RDONLY;
  if (flags & OPEN_MODE.APPEND) mode |= constants.O_APPEND;
  if (flags & OPEN_MODE.CREAT) mode |= constants.O_CREAT;
  if (flags & OPEN_MODE.TRUNC) mode |= constants.O_TRUNC;
  if (flags & OPEN_MODE.EXCL) mode |= constants.O_EXCL;
  // A symlink swapped in after the check is not followed out of the folder.
  return mode | constants.O_NOFOLLOW;
}

function statusOf(error: unknown): [number, string] {
  if (error instanceof Refused) return [error.code, error.message];
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return [STATUS_CODE.NO_SUCH_FILE, 'No such file or directory'];
  if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP')
    return [STATUS_CODE.PERMISSION_DENIED, 'Permission denied'];
  if (code === 'EEXIST') return [STATUS_CODE.FAILURE, 'File exists'];
  if (code === 'ENOTEMPTY') return [STATUS_CODE.FAILURE, 'Directory not empty'];
  if (code === 'EISDIR') return [STATUS_CODE.FAILURE, 'Is a directory'];
  if (code === 'ENOTDIR') return [STATUS_CODE.FAILURE, 'Not a directory'];
  return [STATUS_CODE.FAILURE, 'Failure'];
}

type Handle = { kind: 'file'; file: fs.FileHandle } | { kind: 'dir'; path: string; entries?: string[] };

/**
 * Serves SFTP (version 3, as ssh2 speaks it) over one session's channel, on the device's
 * folder. The same answers OpenSSH's sftp-server gives, in its words, so `sftp` and the
 * console's file browser both work against it.
 */
export function serveSftp(sftp: SFTPWrapper, folder: DeviceFolder): void {
  const handles = new Map<number, Handle>();
  let next = 0;
  const handleOf = (buffer: Buffer) =>
    buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined;
  const newHandle = (handle: Handle) => {
    const id = next++;
    handles.set(id, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  };

  /** Runs one request, answering its failure as a status in words; never throws at the channel. */
  const answer = (id: number, work: () => Promise<void>) => {
    work().catch((error: unknown) => {
      const [code, message] = statusOf(error);
      sftp.status(id, code, message);
    });
  };
  const ok = (id: number) => sftp.status(id, STATUS_CODE.OK);
  const badHandle = () => new Refused(STATUS_CODE.FAILURE, 'Invalid handle');

  sftp.on('REALPATH', (id, name) =>
    answer(id, async () => {
      const virtual = folder.virtual(name);
      const stats = await fs.stat(await folder.real(virtual));
      sftp.name(id, [{ filename: virtual, longname: longname(virtual, stats), attrs: attrsOf(stats) }]);
    }),
  );
  for (const [event, follow] of [
    ['STAT', true],
    ['LSTAT', false],
  ] as const) {
    sftp.on(event, (id: number, name: string) =>
      answer(id, async () => {
        const real = await folder.real(name, follow);
        sftp.attrs(id, attrsOf(follow ? await fs.stat(real) : await fs.lstat(real)));
      }),
    );
  }
  sftp.on('OPEN', (id, name, flags) =>
    answer(id, async () => {
      const file = await fs.open(await folder.real(name), openFlags(flags), 0o644);
      sftp.handle(id, newHandle({ kind: 'file', file }));
    }),
  );
  sftp.on('READ', (id, raw, offset, length) =>
    answer(id, async () => {
      const handle = handleOf(raw);
      if (handle?.kind !== 'file') throw badHandle();
      const buffer = Buffer.alloc(Math.min(length, MAX_READ));
      const { bytesRead } = await handle.file.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) sftp.status(id, STATUS_CODE.EOF);
      else sftp.data(id, buffer.subarray(0, bytesRead));
    }),
  );
  sftp.on('WRITE', (id, raw, offset, data) =>
    answer(id, async () => {
      const handle = handleOf(raw);
      if (handle?.kind !== 'file') throw badHandle();
      await handle.file.write(data, 0, data.length, offset);
      ok(id);
    }),
  );
  sftp.on('FSTAT', (id, raw) =>
    answer(id, async () => {
      const handle = handleOf(raw);
      if (handle?.kind !== 'file') throw badHandle();
      sftp.attrs(id, attrsOf(await handle.file.stat()));
    }),
  );
  // Times and modes a client sets (OpenSSH's `put -p`) are accepted and ignored: the simulated
  // device keeps its own, as a router's flash does.
  sftp.on('FSETSTAT', (id) => ok(id));
  sftp.on('SETSTAT', (id, name) =>
    answer(id, async () => {
      await fs.stat(await folder.real(name));
      ok(id);
    }),
  );
  sftp.on('CLOSE', (id, raw) =>
    answer(id, async () => {
      const handle = handleOf(raw);
      if (!handle) throw badHandle();
      handles.delete(raw.readUInt32BE(0));
      if (handle.kind === 'file') await handle.file.close();
      ok(id);
    }),
  );
  sftp.on('OPENDIR', (id, name) =>
    answer(id, async () => {
      const real = await folder.real(name);
      if (!(await fs.stat(real)).isDirectory()) throw new Refused(STATUS_CODE.FAILURE, 'Not a directory');
      sftp.handle(id, newHandle({ kind: 'dir', path: real }));
    }),
  );
  sftp.on('READDIR', (id, raw) =>
    answer(id, async () => {
      const handle = handleOf(raw);
      if (handle?.kind !== 'dir') throw badHandle();
      handle.entries ??= ['.', '..', ...(await fs.readdir(handle.path)).sort()];
      const batch = handle.entries.splice(0, READDIR_BATCH);
      if (!batch.length) return sftp.status(id, STATUS_CODE.EOF);
      const names: FileEntry[] = [];
      for (const name of batch) {
        const stats = await fs.lstat(path.join(handle.path, name)).catch(() => undefined);
        if (stats) names.push({ filename: name, longname: longname(name, stats), attrs: attrsOf(stats) });
      }
      sftp.name(id, names);
    }),
  );
  sftp.on('MKDIR', (id, name) =>
    answer(id, async () => {
      await fs.mkdir(await folder.real(name, false));
      ok(id);
    }),
  );
  sftp.on('RMDIR', (id, name) =>
    answer(id, async () => {
      if (folder.virtual(name) === '/') throw new Refused(STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
      await fs.rmdir(await folder.real(name, false));
      ok(id);
    }),
  );
  sftp.on('REMOVE', (id, name) =>
    answer(id, async () => {
      await fs.unlink(await folder.real(name, false));
      ok(id);
    }),
  );
  sftp.on('RENAME', (id, from, to) =>
    answer(id, async () => {
      const target = await folder.real(to, false);
      // SFTP v3 renames never replace (OpenSSH's sftp-server answers a failure, as here).
      if (
        await fs.lstat(target).then(
          () => true,
          () => false,
        )
      )
        throw new Refused(STATUS_CODE.FAILURE, 'File exists');
      await fs.rename(await folder.real(from, false), target);
      ok(id);
    }),
  );
  sftp.on('READLINK', (id, name) =>
    answer(id, async () => {
      const link = await fs.readlink(await folder.real(name, false));
      sftp.name(id, [{ filename: link, longname: link, attrs: {} as Attributes }]);
    }),
  );
  // A client may not make links: one pointing out of the folder would be a way out of it.
  sftp.on('SYMLINK', (id) => sftp.status(id, STATUS_CODE.PERMISSION_DENIED, 'Permission denied'));
  sftp.on('EXTENDED', (id) => sftp.status(id, STATUS_CODE.OP_UNSUPPORTED, 'Operation unsupported'));
  // The client is done (OpenSSH's sftp at the end of a batch sends EOF and waits): close our side too.
  sftp.on('end', () => sftp.end());
  sftp.on('close', () => {
    for (const handle of handles.values())
      if (handle.kind === 'file') void handle.file.close().catch(() => {});
    handles.clear();
  });
}
