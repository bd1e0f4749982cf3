import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another Fleetgate server (pid ${pid}) is already using the data directory ${dataDir}. Stop it first, or start this one with another DATA_DIR.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database may be opened by one process only: a second server on the same
 * data directory would corrupt it. A lock file holds the owner's pid; a stale one (its
 * process gone) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'fleetgate.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid))
        throw new DataDirInUseError(dataDir, pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
