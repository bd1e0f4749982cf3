import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  user: string | undefined;
  mail: ParsedMail;
};

export type TestSmtpServer = {
  port: number;
  received: ReceivedMail[];
  /** Resolves with the first message to `to` (waits for it to arrive). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

/**
 * A real SMTP server on a random port (the `smtp-server` package), keeping every message
 * it receives parsed by `mailparser`. With `auth`, only that user and password may send.
 */
export async function startSmtpServer(
  options: {
    auth?: { user: string; pass: string };
    /** Refuse these recipients with a permanent 550 (a hard bounce). */
    reject?: string[];
    tls?: boolean;
  } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: { to: string; resolve(m: ReceivedMail): void }[] = [];
  const serverOptions: SMTPServerOptions = {
    logger: false,
    disabledCommands: options.auth
      ? options.tls
        ? []
        : ['STARTTLS']
      : options.tls
        ? ['AUTH']
        : ['AUTH', 'STARTTLS'],
    authOptional: !options.auth,
    allowInsecureAuth: !options.tls,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (options.reject?.includes(address.address.toLowerCase())) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      return callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const message: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            user: typeof session.user === 'string' ? session.user : undefined,
            mail,
          };
          received.push(message);
          for (const waiter of [...waiters]) {
            if (message.envelope.to.includes(waiter.to)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    waitFor(to, timeoutMs = 10_000) {
      const found = received.find((m) => m.envelope.to.includes(to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message to ${to} arrived`)), timeoutMs);
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
