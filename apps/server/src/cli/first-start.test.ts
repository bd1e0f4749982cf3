import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const EMAIL = 'owner@fleetgate.test';
const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetgate-first-start-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a newcomer's first start: nothing set but free ports and a fresh DATA_DIR. */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: EMAIL,
    LOG_LEVEL: 'info',
  };
  for (const name of [
    'ADMIN_PASSWORD',
    'DATABASE_URL',
    'MQTT_URL',
    'REDIS_URL',
    'LOG_FORMAT',
    'FLEETGATE_NEW_PASSWORD',
  ])
    delete env[name];
  return env;
}

/** Runs a TypeScript entry point of the server (`node --import tsx`) and collects its output. */
function launch(entry: string, args: string[] = [], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: REPO_ROOT,
    env: { ...newcomerEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

const BANNER = /Fleetgate is running at (http:\/\/\S+)[\s\S]*Super admin:[^\n]*\n(?:.*\n)*? {2}─{10,}/;

/** Resolves once the whole banner is printed; rejects if the server exits first. */
async function bannerOf(server: ReturnType<typeof launch>): Promise<string> {
  const started = Date.now();
  for (;;) {
    const url = server.output().match(BANNER)?.[1];
    if (url) return url;
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
    if (Date.now() - started > 60_000) throw new Error(`no banner:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signIn(url: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: EMAIL, password }),
  });
  return response.status;
}

const isJsonLine = (line: string) => line.trim().startsWith('{');

describe('first start of a newcomer (npm start)', () => {
  it('prints the banner last, below the log lines, and the admin command resets the password', async () => {
    const first = launch('apps/server/src/server.ts');
    const url = await bannerOf(first);
    // Whatever the start still logs comes in this second, before anyone uses the console.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const lines = first.output().trimEnd().split('\n');
    const bannerAt = lines.findIndex((line) => line.includes('Fleetgate is running at'));
    expect(lines.slice(0, bannerAt).some((line) => line.includes('Server listening at'))).toBe(true);
    expect(lines.slice(bannerAt).filter(isJsonLine)).toEqual([]);
    const tail = lines.slice(-12).join('\n');
    expect(tail).toContain(url);
    expect(tail).toContain(`Super admin: ${EMAIL}`);
    const generated = tail.match(/Password: {4}(\S+) {3}\(generated now/)?.[1];
    expect(generated).toHaveLength(16);
    expect(tail).toContain(`npm run admin -- reset-password ${EMAIL}`);
    expect(await signIn(url, generated!)).toBe(200);

    // While the server holds the embedded database, the admin command refuses and says why.
    const refused = launch('apps/server/src/cli/admin.ts', ['reset-password', EMAIL]);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('Stop the server first');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const reset = launch('apps/server/src/cli/admin.ts', ['reset-password', EMAIL]);
    expect(await reset.exited).toBe(0);
    const renewed = reset.output().match(/Password: (\S+) {3}\(generated now/)?.[1];
    expect(renewed).toHaveLength(16);

    // What a terminal shows (LOG_FORMAT=pretty, as on a TTY): using the console adds no line below the banner.
    const second = launch('apps/server/src/server.ts', [], { LOG_FORMAT: 'pretty' });
    const again = await bannerOf(second);
    expect(second.output()).toContain('the one printed at the first start');
    expect(await signIn(again, renewed!)).toBe(200);
    expect(await signIn(again, generated!)).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const shown = second.output().trimEnd().split('\n');
    expect(shown.filter(isJsonLine)).toEqual([]);
    expect(shown.at(-1)).toMatch(/^ {2}─{10,}$/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
