import dns from 'node:dns';
import net, { type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server';
import { settingsRepository } from '../settings/settings.repository';

/**
 * The security finding 'SMTP settings accept internal targets and the test button returns
 * the internal server's reply text': each test here replays the attack.
 */

const REFUSED =
  'This address is not allowed: it points to an internal network. Ask the system operator to allow it with SMTP_ALLOWED_HOSTS.';
/** Stands for whatever an internal service says: it must never come back to the browser. */
const MARKER = 'internal-secret-7f3a9c';

/** What the resolver answers for the made-up names below; any other name resolves for real. */
const dnsAnswers = new Map<string, string[]>();
const realLookup = dns.promises.lookup;
vi.spyOn(dns.promises, 'lookup').mockImplementation(((host: string, options: dns.LookupAllOptions) => {
  const answer = dnsAnswers.get(host);
  if (!answer) return realLookup(host, options);
  return Promise.resolve(answer.map((address) => ({ address, family: net.isIP(address) })));
}) as unknown as typeof dns.promises.lookup);

let closedApp: FastifyInstance; // default configuration: nothing internal allowed
let openApp: FastifyInstance; // SMTP_ALLOWED_HOSTS names a few internal hosts
let closedAdmin: TestClient;
let openAdmin: TestClient;
let smtp: TestSmtpServer;
const servers: { close(): Promise<void> }[] = [];

const settings = (overrides: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: smtp.port,
  security: 'none',
  username: '',
  clear_password: true,
  from_address: 'console@fleetgate.test',
  ...overrides,
});

beforeAll(async () => {
  [closedApp, openApp, smtp] = await Promise.all([
    buildTestApp(),
    buildTestApp({
      SMTP_ALLOWED_HOSTS: '127.0.0.1, localhost, 169.254.169.254, [::1], 10.0.0.0/8, relay.rebind.test',
    }),
    startSmtpServer(),
  ]);
  await Promise.all([closedApp.ready(), openApp.ready()]);
  [closedAdmin, openAdmin] = await Promise.all([
    new TestClient(closedApp).login(),
    new TestClient(openApp).login(),
  ]);
});
afterEach(() => dnsAnswers.clear());
afterAll(async () => {
  await Promise.all([closedApp.close(), openApp.close(), smtp.close(), ...servers.map((s) => s.close())]);
  vi.restoreAllMocks();
});

/** An SMTP server on loopback whose behaviour a test chooses; closed after the file. */
async function smtpServerWith(options: SMTPServerOptions) {
  const server = new SMTPServer({ logger: false, ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return (server.server.address() as AddressInfo).port;
}

/** A TCP service that is not SMTP (an SSH daemon's banner, say), on loopback. */
async function bannerService(banner: string) {
  const server = net.createServer((socket) => socket.end(banner));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return (server.address() as AddressInfo).port;
}

async function mailLogOf(admin: TestClient, to: string) {
  const list = await admin.get(`/api/mail-logs?q=${encodeURIComponent(to)}`);
  const [row] = list.json().data as { id: number; status: string; error: string | null }[];
  const message = await admin.get(`/api/mail-logs/${row!.id}`);
  return { row: row!, bodies: list.body + message.body };
}

describe('saving SMTP settings that point inside the network (SMTP_ALLOWED_HOSTS unset)', () => {
  it('refuses loopback, link-local, metadata, private and special addresses, and names resolving to them', async () => {
    dnsAnswers.set('metadata.rebind.test', ['169.254.169.254']);
    dnsAnswers.set('split.rebind.test', ['93.184.216.34', '127.0.0.1']);
    const hosts = [
      '127.0.0.1',
      'localhost',
      '169.254.169.254',
      '[::1]',
      '10.0.0.5',
      '[::ffff:127.0.0.1]',
      '[::ffff:a9fe:a9fe]',
      '0.0.0.0',
      '2130706433', // 127.0.0.1 spelt as one number: the resolver reads it as an address
      '127.1',
      '100.100.100.200',
      '[fd00:ec2::254]',
      '[fe80::1]',
      '[fc00::1]',
      '192.168.1.10',
      '172.16.0.1',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      'metadata.rebind.test',
      'split.rebind.test', // one internal address among several is enough
    ];
    for (const host of hosts) {
      const response = await closedAdmin.put('/api/email-smtp', settings({ host }));
      expect(response.statusCode, host).toBe(400);
      expect(errorsOf(response), host).toEqual([
        { code: 'VALIDATION_ERROR', message: REFUSED, source: 'host' },
      ]);
    }
    expect((await closedAdmin.get('/api/email-smtp')).json().data).toBeNull();
  });

  it('saves a public address and a name that resolves to one', async () => {
    dnsAnswers.set('public.rebind.test', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    for (const host of ['93.184.216.34', 'public.rebind.test']) {
      const response = await closedAdmin.put('/api/email-smtp', settings({ host }));
      expect(response.statusCode, host).toBe(200);
    }
    await closedAdmin.delete('/api/email-smtp');
  });
});

describe('sending through settings that point inside the network (checked at every connection)', () => {
  it('a name that resolved to a public address when saved but to loopback now (DNS rebinding) is refused', async () => {
    dnsAnswers.set('rebind.fleetgate.test', ['93.184.216.34']);
    const saved = await closedAdmin.put('/api/email-smtp', settings({ host: 'rebind.fleetgate.test' }));
    expect(saved.statusCode).toBe(200);
    dnsAnswers.set('rebind.fleetgate.test', ['127.0.0.1']);
    const response = await closedAdmin.post('/api/email-smtp/test', { to: 'rebound@example.test' });
    expect(response.statusCode).toBe(502);
    expect(errorsOf(response)[0]).toEqual({ code: 'SMTP_ERROR', message: `Sending failed: ${REFUSED}` });
    expect((await mailLogOf(closedAdmin, 'rebound@example.test')).row).toMatchObject({
      status: 'failed',
      error: REFUSED,
    });
    await closedAdmin.delete('/api/email-smtp');
  });

  it('a loopback host stored before the check is refused at send time, nothing reaches it, and the mail log says why', async () => {
    await settingsRepository.put(closedApp.db, 'smtp', {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      allow_invalid_certificate: false,
      username: '',
      password_sealed: null,
      from_address: 'console@fleetgate.test',
      from_name: '',
      updated_at: new Date().toISOString(),
    });
    const result = await closedApp.mail.send({
      to: 'stored@example.test',
      template: 't',
      subject: 's',
      text: 'x',
    });
    expect(result).toMatchObject({ status: 'failed', error: REFUSED });
    expect(smtp.received.some((m) => m.envelope.to.includes('stored@example.test'))).toBe(false);
    expect((await mailLogOf(closedAdmin, 'stored@example.test')).row).toMatchObject({
      status: 'failed',
      error: REFUSED,
    });
    const button = await closedAdmin.post('/api/email-smtp/test', { to: 'stored.button@example.test' });
    expect(button.statusCode).toBe(502);
    expect(errorsOf(button)[0]!.message).toBe(`Sending failed: ${REFUSED}`);
    expect(smtp.received).toHaveLength(0);
    await closedAdmin.delete('/api/email-smtp');
  });
});

describe('SMTP_ALLOWED_HOSTS', () => {
  it('lets exactly the hosts, addresses and ranges it names be saved', async () => {
    for (const host of ['127.0.0.1', 'localhost', '169.254.169.254', '[::1]', '10.0.0.5']) {
      const response = await openAdmin.put('/api/email-smtp', settings({ host }));
      expect(response.statusCode, host).toBe(200);
    }
    for (const host of ['127.0.0.2', '192.168.1.10', '169.254.169.253']) {
      const response = await openAdmin.put('/api/email-smtp', settings({ host }));
      expect(response.statusCode, host).toBe(400);
      expect(errorsOf(response)[0], host).toMatchObject({ message: REFUSED, source: 'host' });
    }
  });

  it('connects to the address the allowed name was checked with, and TLS still presents the name', async () => {
    const seen: unknown[] = [];
    const port = await smtpServerWith({
      authOptional: true,
      onData(stream, session, callback) {
        seen.push(session.servername);
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    // Only our resolver knows this name: nodemailer resolving it itself would fail.
    dnsAnswers.set('relay.rebind.test', ['127.0.0.1']);
    const saved = await openAdmin.put(
      '/api/email-smtp',
      settings({ host: 'relay.rebind.test', port, security: 'starttls', allow_invalid_certificate: true }),
    );
    expect(saved.statusCode).toBe(200);
    const response = await openAdmin.post('/api/email-smtp/test', { to: 'pinned@example.test' });
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(['relay.rebind.test']);
  });
});

describe('failures never show what the remote server said', () => {
  it('a refused sign-in shows its status code only, in the answer and in the mail log', async () => {
    const port = await smtpServerWith({
      banner: `${MARKER} banner`,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(_auth, _session, callback) {
        callback(new Error(`Invalid login for ${MARKER}`));
      },
    });
    await openAdmin.put(
      '/api/email-smtp',
      settings({ port, username: 'u', password: 'p', clear_password: false }),
    );
    const response = await openAdmin.post('/api/email-smtp/test', { to: 'signin@example.test' });
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain(MARKER);
    expect(errorsOf(response)).toEqual([
      { code: 'SMTP_ERROR', message: 'Sending failed: The SMTP server refused the sign-in (535)' },
    ]);
    const log = await mailLogOf(openAdmin, 'signin@example.test');
    expect(log.row.error).toBe('The SMTP server refused the sign-in (535)');
    expect(log.bodies).not.toContain(MARKER);
  });

  it('a refused recipient shows the status code only, in the answer, the log and the suppression list', async () => {
    const port = await smtpServerWith({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error(`Mailbox ${MARKER} unavailable`), { responseCode: 550 }));
      },
    });
    await openAdmin.put('/api/email-smtp', settings({ port }));
    const response = await openAdmin.post('/api/email-smtp/test', { to: 'refused@example.test' });
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain(MARKER);
    expect(errorsOf(response)[0]!.message).toBe('Sending failed: The SMTP server answered 550');
    expect((await mailLogOf(openAdmin, 'refused@example.test')).bodies).not.toContain(MARKER);
    const suppressed = await openAdmin.get('/api/suppressed-emails?q=refused');
    expect(suppressed.body).not.toContain(MARKER);
    expect(suppressed.json().data[0]).toMatchObject({
      email: 'refused@example.test',
      reason: 'Bounced: The SMTP server answered 550',
    });
  });

  it('a service that is not SMTP cannot be read out through the test button', async () => {
    const port = await bannerService(`SSH-2.0-OpenSSH_9.6 ${MARKER}\r\n`);
    await openAdmin.put('/api/email-smtp', settings({ port }));
    const response = await openAdmin.post('/api/email-smtp/test', { to: 'banner@example.test' });
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain(MARKER);
    expect(errorsOf(response)[0]!.message).toBe(
      'Sending failed: The server did not answer as an SMTP server (EPROTOCOL)',
    );
    expect((await mailLogOf(openAdmin, 'banner@example.test')).bodies).not.toContain(MARKER);
  });

  it('a closed port names the network error', async () => {
    const port = await bannerService('');
    await servers.pop()!.close();
    await openAdmin.put('/api/email-smtp', settings({ port }));
    const response = await openAdmin.post('/api/email-smtp/test', { to: 'closed@example.test' });
    expect(errorsOf(response)[0]!.message).toBe(
      'Sending failed: Could not connect to the SMTP server (ECONNREFUSED)',
    );
  });
});
