import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import type { FastifyInstance } from 'fastify';
import { type SFTPWrapper, Client as SshClient } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { cookieHeader } from '#test/sockets';

/**
 * The console's file browser end to end: SFTP from the server to the simulated device's SSH
 * service through its tunnel, driven by the REST calls of /api/remote/sftp; then what the
 * device's folder refuses (paths out of it, NUL bytes, symlinks) and who may use a browser.
 */

let app: FastifyInstance;
let base: string;
let acme: TestClient;
let beta: TestClient;
let guest: TestClient;
let agent: DeviceAgent;
let deviceId: number;
let files: string;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Opened as a browser opens it, at the server's real address: the device's tunnel goes there. */
async function open(client: TestClient, password = agent.password) {
  return client.post(
    '/api/remote/sftp',
    { device_id: deviceId, username: 'admin', password },
    { host: `127.0.0.1:${httpPort(app)}` },
  );
}
async function opened(client: TestClient) {
  const response = await open(client);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: string; host_key: string; home: string };
}
const list = async (client: TestClient, id: string, folder: string) =>
  client.get(`/api/remote/sftp/${id}/list?path=${encodeURIComponent(folder)}`);
const names = async (client: TestClient, id: string, folder: string) =>
  ((await list(client, id, folder)).json().data as { name: string }[]).map((e) => e.name);
const fileUrl = (id: string, name: string) => `/api/remote/sftp/${id}/file?path=${encodeURIComponent(name)}`;

beforeAll(async () => {
  files = mkdtempSync(path.join(tmpdir(), 'fleetgate-sftp-'));
  app = await buildGatewayApp({ listen: true, env: { DATA_DIR: files } });
  base = `http://127.0.0.1:${httpPort(app)}`;
  const tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  await createUser(app, 'guest@acme.test', 'read_only', tree.acme.id);
  [acme, beta, guest] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'admin@beta.test'),
    signedIn(app, 'guest@acme.test'),
  ]);
  const identity = testIdentity('RUT241');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true, filesDir: path.join(files, 'device') });
});
afterAll(async () => {
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
  rmSync(files, { recursive: true, force: true });
});

describe('the file browser through a device tunnel', () => {
  it('lists, uploads, downloads the same bytes, renames, makes and deletes, and records the session', async () => {
    const browser = await opened(acme);
    expect(browser.home).toBe('/');
    expect(browser.host_key).toMatch(/^SHA256:/);
    expect(await names(acme, browser.id, '/')).toEqual(['etc', 'tmp']);
    const etc = (await list(acme, browser.id, '/etc')).json().data;
    expect(etc[0]).toMatchObject({ name: 'config', path: '/etc/config', type: 'directory' });
    expect(etc[1]).toMatchObject({ name: 'version', type: 'file', size: agent.identity.firmware.length + 1 });

    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const upload = await acme.request('PUT', fileUrl(browser.id, '/tmp/upload.bin'), bytes, {
      'content-type': 'application/octet-stream',
    });
    expect(upload.json()).toMatchObject({ data: { path: '/tmp/upload.bin', size: bytes.length } });
    const download = await acme.get(fileUrl(browser.id, '/tmp/upload.bin'));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''upload.bin");
    expect(Number(download.headers['content-length'])).toBe(bytes.length);
    expect(sha256(download.rawPayload)).toBe(sha256(bytes));

    // An empty file comes back empty (the read-ahead ends at once).
    await acme.request('PUT', fileUrl(browser.id, '/tmp/empty'), Buffer.alloc(0), {
      'content-type': 'application/octet-stream',
    });
    expect((await acme.get(fileUrl(browser.id, '/tmp/empty'))).rawPayload.length).toBe(0);
    await acme.delete(fileUrl(browser.id, '/tmp/empty'));

    const renamed = await acme.post(`/api/remote/sftp/${browser.id}/rename`, {
      from: '/tmp/upload.bin',
      to: '/tmp/kept.bin',
    });
    expect(renamed.json().message).toBe('Renamed successfully');
    expect(
      (await acme.post(`/api/remote/sftp/${browser.id}/folders`, { path: '/tmp/logs' })).statusCode,
    ).toBe(200);
    expect(await names(acme, browser.id, '/tmp')).toEqual(['logs', 'kept.bin']);
    // A rename never replaces, and a folder with files is not removed by surprise.
    const over = await acme.post(`/api/remote/sftp/${browser.id}/rename`, {
      from: '/tmp/kept.bin',
      to: '/tmp/logs',
    });
    expect(errorsOf(over)[0]?.message).toBe('File exists: /tmp/kept.bin');
    await acme.request('PUT', fileUrl(browser.id, '/tmp/logs/a.txt'), Buffer.from('a'), {
      'content-type': 'application/octet-stream',
    });
    const full = await acme.delete(fileUrl(browser.id, '/tmp/logs'));
    expect(errorsOf(full)[0]?.message).toBe('Directory not empty: /tmp/logs');
    for (const name of ['/tmp/logs/a.txt', '/tmp/logs', '/tmp/kept.bin'])
      expect((await acme.delete(fileUrl(browser.id, name))).json().message).toBe('Deleted successfully');
    expect(await names(acme, browser.id, '/tmp')).toEqual([]);
    const missing = await acme.get(fileUrl(browser.id, '/tmp/kept.bin'));
    expect(missing.statusCode).toBe(404);
    expect(errorsOf(missing)[0]?.message).toBe('No such file or folder: /tmp/kept.bin');

    expect((await acme.delete(`/api/remote/sftp/${browser.id}`)).statusCode).toBe(200);
    const [session] = await waitFor(async () => {
      const rows = (await acme.get(`/api/remote/sessions?device_id=${deviceId}`)).json().data as {
        ended_at: string | null;
        bytes_to_device: number;
        bytes_from_device: number;
      }[];
      return rows[0]?.ended_at ? rows : undefined;
    });
    if (!session) throw new Error('no session');
    expect(session).toMatchObject({
      id: browser.id,
      protocol: 'sftp',
      login: 'admin',
      host_key: browser.host_key,
      end_reason: 'The user closed the file browser',
    });
    expect(session.bytes_to_device).toBeGreaterThan(bytes.length);
    expect(session.bytes_from_device).toBeGreaterThan(bytes.length);
    // A closed browser is gone.
    expect((await list(acme, browser.id, '/')).statusCode).toBe(404);
  });

  it('refuses an upload over 80 MB, declared or streamed, and leaves no partial file', async () => {
    const browser = await opened(acme);
    // A declared size over the limit is answered at once, before the body arrives.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${base}${fileUrl(browser.id, '/tmp/big.bin')}`, {
        method: 'PUT',
        headers: {
          cookie: cookieHeader(acme),
          'x-requested-with': 'XMLHttpRequest',
          'x-xsrf-token': acme.cookies.get('XSRF-TOKEN') ?? '',
          'content-type': 'application/octet-stream',
          'content-length': String(MAX_FILE_SIZE_BYTES + 1),
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      request.on('error', reject);
      request.write(Buffer.alloc(16));
    });
    expect(declared.status).toBe(400);
    expect(JSON.parse(declared.body).errors[0].message).toBe('Maximum file size is 80 MB');
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const streamed = await fetch(`${base}${fileUrl(browser.id, '/tmp/big.bin')}`, {
      method: 'PUT',
      headers: {
        cookie: cookieHeader(acme),
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': acme.cookies.get('XSRF-TOKEN') ?? '',
        'content-type': 'application/octet-stream',
      },
      body: new ReadableStream({
        pull(controller) {
          if (sent > MAX_FILE_SIZE_BYTES + chunk.length) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(((await streamed.json()) as { errors: unknown[] }).errors[0]).toMatchObject({
      message: 'Maximum file size is 80 MB',
      source: 'file',
    });
    expect(await names(acme, browser.id, '/tmp')).toEqual([]);
    expect(existsSync(path.join(files, 'device/tmp/big.bin'))).toBe(false);
    await acme.delete(`/api/remote/sftp/${browser.id}`);
  });

  it('refuses the wrong device password in words', async () => {
    const response = await open(acme, 'not-the-password');
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]?.message).toBe('The device refused the user name or password');
  });

  it('keeps a browser to the console session that opened it', async () => {
    const browser = await opened(acme);
    expect((await list(beta, browser.id, '/')).statusCode).toBe(404);
    const again = await signedIn(app, 'admin@acme.test');
    expect((await list(again, browser.id, '/')).statusCode).toBe(404);
    expect((await open(guest)).statusCode).toBe(403);
    expect(
      (await beta.post('/api/remote/sftp', { device_id: deviceId, username: 'admin', password: 'x' }))
        .statusCode,
    ).toBe(404);
    await acme.delete(`/api/remote/sftp/${browser.id}`);
  });
});

describe("the device's folder, as its SFTP server keeps it", () => {
  it('keeps `..`, encoded dots and absolute paths inside the folder', async () => {
    const browser = await opened(acme);
    // `..` stops at the top, as in a chroot: these are the device's /etc, not this machine's.
    for (const name of ['../../etc', '/../../../etc', '/tmp/../../etc'])
      expect(await names(acme, browser.id, name)).toEqual(['config', 'version']);
    for (const name of [
      '/etc/passwd',
      '../../../../etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      '/tmp/..%2f..%2fetc',
    ])
      expect((await acme.get(fileUrl(browser.id, name))).statusCode).toBe(404);
    const nul = await acme.get(`/api/remote/sftp/${browser.id}/list?path=%2Ftmp%00%2F..`);
    expect(nul.statusCode).toBe(400);
    expect(errorsOf(nul)[0]?.message).toMatch(/must not contain NUL/);
    await acme.delete(`/api/remote/sftp/${browser.id}`);
  });

  it('refuses symlinks that lead out of the folder', async () => {
    symlinkSync('/etc', path.join(files, 'device/tmp/out'));
    symlinkSync('/etc/hostname', path.join(files, 'device/tmp/host'));
    symlinkSync('../etc/version', path.join(files, 'device/tmp/version'));
    const browser = await opened(acme);
    const out = await list(acme, browser.id, '/tmp/out');
    expect(out.statusCode).toBe(403);
    expect(errorsOf(out)[0]?.message).toBe('Permission denied: /tmp/out');
    expect((await acme.get(fileUrl(browser.id, '/tmp/out/passwd'))).statusCode).toBe(403);
    expect((await acme.get(fileUrl(browser.id, '/tmp/host'))).statusCode).toBe(403);
    // Writing through a link out is refused too, and nothing appears outside.
    const write = await acme.request(
      'PUT',
      fileUrl(browser.id, '/tmp/out/fleetgate-escape'),
      Buffer.from('x'),
      {
        'content-type': 'application/octet-stream',
      },
    );
    expect(write.statusCode).toBe(403);
    expect(existsSync('/etc/fleetgate-escape')).toBe(false);
    // A link that stays inside works.
    expect((await acme.get(fileUrl(browser.id, '/tmp/version'))).rawPayload.toString()).toBe(
      `${agent.identity.firmware}\n`,
    );
    await acme.delete(`/api/remote/sftp/${browser.id}`);
    for (const name of ['out', 'host', 'version']) rmSync(path.join(files, `device/tmp/${name}`));
  });

  it('answers a NUL byte or a new symlink from any SFTP client with a refusal', async () => {
    const address = agent.services!.resolve('127.0.0.1', 22)!;
    const client = new SshClient();
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
      client.once('error', reject);
      client.once('ready', () => client.sftp((error, s) => (error ? reject(error) : resolve(s))));
      client.connect({ ...address, username: 'admin', password: agent.password });
    });
    const failure = (run: (done: (error?: Error | null) => void) => void) =>
      new Promise<string>((resolve) => run((error) => resolve(error?.message ?? 'ok')));
    expect(await failure((done) => sftp.stat('/etc\0/../../..', done))).toBe('Invalid path');
    expect(await failure((done) => sftp.symlink('/etc', '/tmp/made', done))).toBe('Permission denied');
    expect(await failure((done) => sftp.rmdir('/', done))).toBe('Permission denied');
    client.end();
  });
});
