import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { build } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { openTestDatabase } from './database';

export const ADMIN_EMAIL = 'admin@fleetgate.test';
export const ADMIN_PASSWORD = 'admin-password-1';

export function testConfig(env: Record<string, string> = {}, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_EMAIL, ADMIN_PASSWORD, LOGIN_RATE_LIMIT: '1000', ...env },
    { inMemoryDatabase: true, embeddedBroker: false, ...overrides },
  );
}

/** The real app on a fresh database, for `inject` tests. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const database = await openTestDatabase();
  return build(testConfig(env), { database });
}

/** JSON, or raw bytes (an upload of application/octet-stream). */
type Body = Record<string, unknown> | unknown[] | Buffer | undefined;

/**
 * A browser-like client over `app.inject`: keeps cookies, sends X-Requested-With and the
 * XSRF header the way the console does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
  /** Wait for the database's change notifications before each request (see settleWrites). */
  settleFirst = true;

  constructor(readonly app: FastifyInstance) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: Body,
    extra: Record<string, string> = {},
  ) {
    if (this.settleFirst) await settleWrites(this.app);
    const headers: Record<string, string> = { ...this.headers, ...extra };
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && !('x-xsrf-token' in headers)) headers['x-xsrf-token'] = xsrf;
    const response = await this.app.inject({
      method,
      url,
      headers,
      cookies: Object.fromEntries(this.cookies),
      ...(body === undefined ? {} : { payload: body as object }),
    });
    this.keepCookies(response);
    return response;
  }

  private keepCookies(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires instanceof Date && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  get = (url: string, extra?: Record<string, string>) => this.request('GET', url, undefined, extra);
  post = (url: string, body?: Body, extra?: Record<string, string>) =>
    this.request('POST', url, body ?? {}, extra);
  put = (url: string, body?: Body, extra?: Record<string, string>) =>
    this.request('PUT', url, body ?? {}, extra);
  delete = (url: string, extra?: Record<string, string>) => this.request('DELETE', url, undefined, extra);

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
    const response = await this.post('/api/auth/login', { email, password });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    return this;
  }
}

/** The `errors` of an error body. */
export function errorsOf(
  response: LightMyRequestResponse,
): { code: string; message: string; source?: string }[] {
  return (response.json() as { errors: { code: string; message: string; source?: string }[] }).errors;
}

/**
 * Tests write to the database behind the app's back (to age a session, say). On PGlite
 * the app hears of such a write before it returns; on PostgreSQL the notification comes
 * over another connection, so a request right after it could still meet the caller kept
 * in memory. Waiting for the notifications first makes the next request see the write,
 * as it would a moment later in production.
 */
function settleWrites(app: FastifyInstance): Promise<void> {
  return app.callers.settle();
}

/** A multipart body with one file, as a browser sends it; bytes stay bytes (an image). */
function multipart(filename: string, content: string | Buffer, type = 'text/csv') {
  const boundary = '----fleetgate-test-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const body =
    typeof content === 'string'
      ? `${head}${content}${tail}`
      : Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads one file as `client` (field `file`), the way the console's file inputs do. */
export async function upload(
  client: TestClient,
  url: string,
  filename: string,
  content: string | Buffer,
  type?: string,
) {
  const { body, contentType } = multipart(filename, content, type);
  await settleWrites(client.app);
  return client.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: {
      ...client.headers,
      'content-type': contentType,
      'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '',
    },
    cookies: Object.fromEntries(client.cookies),
  });
}
