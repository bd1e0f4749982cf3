import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { SOCKET } from '@fleetgate/shared/constants';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDir, serverEnv, spawnServer, waitForExit, waitForUrl } from '../support/server';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function signInWorks(url: string, email: string, password: string): Promise<boolean> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password }),
  });
  return response.status === 200;
}

/** The session cookies of a sign-in, as one Cookie header. */
async function sessionCookie(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The data directory of the first-start tests: no ADMIN_PASSWORD, so one is generated. */
const dataDir = freshDir();
dirs.push(dataDir);
const firstStartEnv = serverEnv(dataDir, { ADMIN_PASSWORD: '', ADMIN_EMAIL: 'owner@fleetgate.test' });
delete firstStartEnv.ADMIN_PASSWORD;
let generated = '';

describe('server lifecycle', () => {
  it('first start on an empty data directory prints the URL and a generated super admin password', async () => {
    const { child, output } = spawnServer(firstStartEnv);
    const url = await waitForUrl(child, output);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output()).toContain('Super admin: owner@fleetgate.test');
    const match = output().match(/Password: {4}(\S+) {3}\(generated now and stored hashed/);
    expect(match?.[1]).toHaveLength(16);
    generated = match![1]!;
    expect(await signInWorks(url, 'owner@fleetgate.test', generated)).toBe(true);
    child.kill('SIGTERM');
    expect(await waitForExit(child)).toBe(0);
  });

  it('a second start reuses the data: the same password works and nothing is seeded again', async () => {
    const { child, output } = spawnServer(firstStartEnv);
    const url = await waitForUrl(child, output);
    expect(output()).not.toContain('generated now');
    expect(output()).toContain('the one printed at the first start');
    expect(await signInWorks(url, 'owner@fleetgate.test', generated)).toBe(true);
    child.kill('SIGTERM');
    expect(await waitForExit(child)).toBe(0);
  });

  it('SIGTERM closes HTTP, sockets, the broker and the database in that order and exits 0, even with a browser socket open', async () => {
    const { child, output } = spawnServer({ ...firstStartEnv, LOG_LEVEL: 'info' });
    const url = await waitForUrl(child, output);
    // A connected socket must not hold the shutdown open (realtime drops it in preClose).
    const socket = io(url, {
      path: SOCKET.path,
      transports: ['websocket'],
      extraHeaders: { cookie: await sessionCookie(url, 'owner@fleetgate.test', generated) },
      reconnection: false,
    });
    await new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(undefined));
      socket.once('connect_error', reject);
    });
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));
    child.kill('SIGTERM');
    expect(await waitForExit(child)).toBe(0);
    expect(await dropped).toBeTruthy();
    const steps = ['"http closed"', '"sockets closed"', '"broker closed"', '"database closed"'].map((s) =>
      output().indexOf(s),
    );
    expect(steps.every((i) => i > 0)).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  });

  it('a second server on the same data directory is refused with a clear message', async () => {
    const first = spawnServer(firstStartEnv);
    await waitForUrl(first.child, first.output);
    const second = spawnServer(firstStartEnv);
    expect(await waitForExit(second.child)).toBe(1);
    expect(second.output()).toMatch(
      /Another Fleetgate server \(pid \d+\) is already using the data directory/,
    );
    first.child.kill('SIGTERM');
    expect(await waitForExit(first.child)).toBe(0);
  });

  it('bad configuration stops the start with every problem named, and no stack trace', async () => {
    const { child, output } = spawnServer({ ...firstStartEnv, PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(await waitForExit(child)).toBe(1);
    expect(output()).toContain('Invalid configuration:');
    expect(output()).toContain('PORT must be a number (got "abc")');
    expect(output()).toContain('LOG_LEVEL');
    expect(output()).not.toMatch(/\n\s+at /);
  });

  it('an HTTP port already in use is reported plainly', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const { child, output } = spawnServer({ ...firstStartEnv, PORT: String(port) });
    expect(await waitForExit(child)).toBe(1);
    blocker.close();
    expect(output()).toContain(
      `Cannot listen on 127.0.0.1:${port}: the port is already in use. Set PORT to another port.`,
    );
    expect(output()).not.toMatch(/\n\s+at /);
  });
});
