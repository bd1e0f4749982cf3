import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type TestClient } from '#test/app';
import { buildGatewayApp, httpPort, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';

/**
 * Port forwards through device tunnels with unmodified clients: OpenSSH's `ssh` runs a command
 * on the simulated device through a listener of the server, as an operator's terminal would.
 * Skipped with a clear message where OpenSSH's client is not installed.
 */

let app: FastifyInstance;
let acme: TestClient;
let beta: TestClient;
let agent: DeviceAgent;
let deviceId: number;
let scratch: string;

const hasSsh = await new Promise<boolean>((resolve) => {
  const probe = spawn('ssh', ['-V'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});
if (!hasSsh)
  console.warn('remote-forward tests: OpenSSH client (ssh) not found; install openssh-client to run them');

/** Runs OpenSSH's `ssh` against a forward's port, the password given by SSH_ASKPASS. */
function ssh(port: number, command: string) {
  const askpass = path.join(scratch, 'askpass.sh');
  writeFileSync(askpass, `#!/bin/sh\necho '${agent.password}'\n`);
  chmodSync(askpass, 0o700);
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(
      'ssh',
      [
        '-p',
        String(port),
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'PreferredAuthentications=password',
        '-o',
        'PubkeyAuthentication=no',
        '-o',
        'ConnectTimeout=10',
        'admin@127.0.0.1',
        command,
      ],
      {
        env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

/** Whether a TCP connection to the port is accepted and then kept (not closed at once). */
function refusedOrClosed(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(true));
    socket.once('close', () => resolve(true));
    socket.once('data', () => {
      socket.destroy();
      resolve(false);
    });
    setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 3000).unref();
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'fleetgate-forward-'));
  app = await buildGatewayApp({ listen: true });
  const tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acme, beta] = await Promise.all([signedIn(app, 'admin@acme.test'), signedIn(app, 'admin@beta.test')]);
  const identity = testIdentity('RUTX11');
  deviceId = (await registerDirect(app, identity, tree.acme.id)).id;
  agent = await onlineAgent(app, identity, { services: true });
});
afterAll(async () => {
  await agent?.services?.close();
  await agent?.stop();
  await app?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!hasSsh)('port forwards (docs/decisions.md, Remote access)', () => {
  it("OpenSSH's ssh runs a command on the device through a forward, recorded as a session", async () => {
    // Asked as a browser asks, at the server's real address: the device's tunnel goes there.
    const opened = await acme.post(
      '/api/remote/forwards',
      { device_id: deviceId, minutes: 10 },
      { host: `127.0.0.1:${httpPort(app)}` },
    );
    expect(opened.statusCode, opened.body).toBe(200);
    const forward = opened.json().data as { id: string; port: number; host: string; target_port: number };
    expect(forward).toMatchObject({ host: '127.0.0.1', target_port: 22 });
    const result = await ssh(forward.port, 'uname -a');
    expect(result.err, result.err).not.toMatch(/denied|refused|closed/i);
    expect(result.out).toContain(`(${agent.identity.model})`);
    expect(result.code).toBe(0);
    const sessions = await waitFor(async () => {
      const rows = (await acme.get(`/api/remote/sessions?device_id=${deviceId}`)).json().data as {
        protocol: string;
        ended_at: string | null;
        bytes_from_device: number;
      }[];
      return rows[0]?.ended_at ? rows : undefined;
    });
    expect(sessions[0]).toMatchObject({ protocol: 'ssh' });
    expect(sessions[0]!.bytes_from_device).toBeGreaterThan(0);

    const listed = (await acme.get(`/api/remote/forwards?device_id=${deviceId}`)).json().data as {
      id: string;
    }[];
    expect(listed.map((f) => f.id)).toContain(forward.id);
    expect((await beta.get('/api/remote/forwards')).json().data).toEqual([]);
    expect((await beta.delete(`/api/remote/forwards/${forward.id}`)).statusCode).toBe(404);
    expect((await acme.delete(`/api/remote/forwards/${forward.id}`)).statusCode).toBe(200);
    expect(await refusedOrClosed(forward.port)).toBe(true);
  });

  it('a client from an address outside the allowlist is dropped', async () => {
    const opened = await acme.post('/api/remote/forwards', {
      device_id: deviceId,
      minutes: 1,
      allow_from: ['203.0.113.0/24'],
    });
    const forward = opened.json().data as { id: string; port: number };
    expect(await refusedOrClosed(forward.port)).toBe(true);
    await acme.delete(`/api/remote/forwards/${forward.id}`);
  });

  it('refuses bad lengths, bad allowlists, another tenant’s device and a role without remote access', async () => {
    const bad = async (body: Record<string, unknown>) =>
      errorsOf(await acme.post('/api/remote/forwards', { device_id: deviceId, ...body })).map(
        (e) => e.message,
      );
    expect(await bad({ minutes: 0 })).toEqual(['A port forward lasts 1 to 1440 minutes']);
    expect(await bad({ minutes: 1441 })).toEqual(['A port forward lasts 1 to 1440 minutes']);
    expect(await bad({ minutes: 5, allow_from: ['not-an-address'] })).toEqual([
      'Allowed addresses must be IP addresses or ranges such as 203.0.113.0/24',
    ]);
    expect((await beta.post('/api/remote/forwards', { device_id: deviceId, minutes: 5 })).statusCode).toBe(
      404,
    );
  });
});
