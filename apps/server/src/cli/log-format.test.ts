import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { type LogFormat, logStream, requestLogController, TerminalRequestLogs } from './log-format';

const stdoutIsTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');

function pretendStdoutIsTTY(tty: boolean) {
  Object.defineProperty(process.stdout, 'isTTY', { value: tty, configurable: true });
}

afterEach(() => {
  if (stdoutIsTTY) Object.defineProperty(process.stdout, 'isTTY', stdoutIsTTY);
  else delete (process.stdout as { isTTY?: boolean }).isTTY;
});

describe('LOG_FORMAT', () => {
  it('defaults to pretty on a terminal and to JSON otherwise', () => {
    pretendStdoutIsTTY(true);
    expect(loadConfig({}).logFormat).toBe('pretty');
    pretendStdoutIsTTY(false);
    expect(loadConfig({}).logFormat).toBe('json');
  });

  it('LOG_FORMAT=json keeps JSON on a terminal, LOG_FORMAT=pretty forces readable lines', () => {
    pretendStdoutIsTTY(true);
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    pretendStdoutIsTTY(false);
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
  });

  it('only the pretty format changes how requests are logged', () => {
    expect(requestLogController('json')).toBeUndefined();
    expect(requestLogController('pretty')).toBeInstanceOf(TerminalRequestLogs);
  });
});

/** A server logging as `server.ts` would in `format`, into `lines`. */
async function serverLoggingAs(format: LogFormat, level = 'info') {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level, stream: logStream(format, { write: (line: string) => void lines.push(line) }) },
    // A short threshold, so that the slow route need not wait a second.
    logController: format === 'pretty' ? new TerminalRequestLogs(50) : undefined,
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/broken', async (_request, reply) => reply.code(503).send({ ok: false }));
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 80));
    return { ok: true };
  });
  app.get('/fails', async () => {
    throw new Error('kaput');
  });
  await app.ready();
  return { app, lines };
}

describe('request logs', () => {
  it('pretty: a successful request prints nothing at info; 5xx and slow ones print one readable line', async () => {
    const { app, lines } = await serverLoggingAs('pretty');
    await app.inject('/ok');
    expect(lines).toEqual([]);
    await app.inject('/broken');
    await app.inject('/slow');
    await app.inject('/fails');
    await app.close();
    expect(lines.some((l) => l.trim().startsWith('{'))).toBe(false);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    const text = lines.join('');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] .*WARN.*GET \/broken answered 503 in \d+ ms/m);
    expect(text).toMatch(/WARN.*GET \/slow answered 200 in \d+ ms/);
    expect(text).toMatch(/ERROR.*kaput/);
    expect(text).not.toContain('/ok');
  });

  it('pretty: with LOG_LEVEL=debug every request shows, still one line each', async () => {
    const { app, lines } = await serverLoggingAs('pretty', 'debug');
    await app.inject('/ok');
    await app.close();
    const text = lines.join('');
    expect(text).toMatch(/DEBUG.*incoming request/);
    expect(text).toMatch(/DEBUG.*GET \/ok answered 200/);
  });

  it('json: every request is logged at info as one JSON object a line, as before', async () => {
    const { app, lines } = await serverLoggingAs('json');
    await app.inject('/ok');
    await app.close();
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 30, msg: 'incoming request' }),
        expect.objectContaining({ level: 30, msg: 'request completed' }),
      ]),
    );
  });
});
