import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type Received = { to: string[]; user: string | undefined; mail: ParsedMail };

export type TestSmtp = {
  port: number;
  received: Received[];
  /** Resolves with the first message to `to`, waiting for it to arrive. */
  waitFor(to: string, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
};

/**
 * A real SMTP server for a browser test (the `smtp-server` package), on a random port,
 * with one user and password; every message it receives is parsed by `mailparser`.
 */
export async function startSmtp(auth: { user: string; pass: string }): Promise<TestSmtp> {
  const received: Received[] = [];
  const waiters: { to: string; resolve(m: Received): void }[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(login, _session, callback) {
      if (login.username === auth.user && login.password === auth.pass)
        return callback(null, { user: login.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const message: Received = {
            to: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            mail,
          };
          received.push(message);
          for (const waiter of [...waiters]) {
            if (message.to.includes(waiter.to)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    waitFor(to, timeoutMs = 15_000) {
      const found = received.find((m) => m.to.includes(to));
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
