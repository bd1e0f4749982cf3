import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN = { email: 'admin@fleetgate.test', password: 'e2e-admin-password' };

export type RunningServer = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** Stops the server and removes its data directory. */
  dispose(): Promise<void>;
};

/** The environment every e2e server runs with: free ports, quiet logs, a known admin. */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT: '1000',
    DATABASE_URL: '',
    MQTT_URL: '',
    ...extra,
  };
}

/** Spawns the real server (`node --import tsx`, so the pid is the server's) and collects its output. */
export function spawnServer(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { child, output: () => text };
}

export function waitForExit(child: ChildProcess, timeoutMs = 20_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not exit in time')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Resolves with the printed URL once the server says it runs; rejects if it exits first. */
export function waitForUrl(child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const match = output().match(/Fleetgate is running at (http:\/\/\S+)/);
      if (match?.[1]) return resolve(match[1]);
      if (child.exitCode !== null)
        return reject(new Error(`server exited (${child.exitCode}):\n${output()}`));
      if (Date.now() - started > timeoutMs) return reject(new Error(`server did not start:\n${output()}`));
      setTimeout(check, 50);
    };
    check();
  });
}

export function freshDir(prefix = 'fleetgate-e2e-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/**
 * Starts the real server on a random port with its own data directory, copied from the
 * migrated template the global setup made (a fresh on-disk initdb costs seconds).
 */
export async function startServer(
  options: { env?: Record<string, string>; template?: string | undefined } = {},
): Promise<RunningServer> {
  const dataDir = freshDir();
  if (options.template) cpSync(options.template, dataDir, { recursive: true });
  const { child, output } = spawnServer(serverEnv(dataDir, options.env));
  const url = (await waitForUrl(child, output)).replace('localhost', '127.0.0.1');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return waitForExit(child);
  };
  return {
    url,
    dataDir,
    process: child,
    output,
    stop,
    async dispose() {
      await stop().catch(() => child.kill('SIGKILL'));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
