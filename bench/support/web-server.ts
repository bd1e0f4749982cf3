import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN = { email: 'admin@bench.local', password: 'bench-admin-password' };

/** A cookie as the browser context takes it. */
export type BenchCookie = { name: string; value: string; url: string };

export type DemoServer = {
  url: string;
  dataDir: string;
  /** The super admin's session, for the browser contexts of signed-in screens. */
  cookies: BenchCookie[];
  /** A signed-in JSON request to the API (`/api` is added in front of `route`). */
  api<T>(method: string, route: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
};

function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const match = output().match(/Fleetgate is running at (http:\/\/\S+)/);
      if (match?.[1]) return resolve(match[1].replace('localhost', '127.0.0.1'));
      if (child.exitCode !== null)
        return reject(new Error(`server exited (${child.exitCode}):\n${output()}`));
      if (Date.now() - started > 120_000) return reject(new Error(`server did not start:\n${output()}`));
      setTimeout(check, 100);
    };
    check();
  });
}

/**
 * The real server as `npm start -- --demo` runs it (its own process, serving apps/web/dist
 * with the precompressed files), on a free port with a fresh data directory and `devices`
 * simulated devices, and the super admin signed in over HTTP.
 */
export async function startDemoServer(devices: number): Promise<DemoServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetgate-bench-web-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts', '--demo'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      MQTT_URL: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      LOGIN_RATE_LIMIT: '10000',
      DEMO_DEVICES: String(devices),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await waitForUrl(child, () => text);
    const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify(ADMIN),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const pairs = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
    const cookies = pairs.map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
    const cookie = pairs.join('; ');
    // Changes carry the XSRF cookie's value in a header, as the console sends it.
    const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    const changeHeaders: Record<string, string> = xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {};
    return {
      url,
      dataDir,
      cookies,
      async api<T>(method: string, route: string, body?: unknown) {
        const response = await fetch(`${url}/api${route}`, {
          method,
          headers: { ...headers, ...(method === 'GET' ? {} : changeHeaders), cookie },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
        return (await response.json()) as T;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
