import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, buildQuery, cancelPending, clearResponseCache, toFormData } from './client';
import { ApiError, CancelledError } from './errors';
import { clientHandlers } from './handlers';

type Call = { url: string; init: RequestInit };
let calls: Call[];
let responder: (call: Call) => Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json(200, { success: true, data });

beforeEach(() => {
  calls = [];
  responder = async () => ok(null);
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      responder(call).then(resolve, reject);
    });
  });
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
  document.cookie = 'XSRF-TOKEN=xsrf-1; path=/';
  clientHandlers.confirmPassword = null;
  clientHandlers.verify = null;
  clearResponseCache();
});
afterEach(() => vi.unstubAllGlobals());

const headers = (call: Call | undefined) => (call?.init.headers ?? {}) as Record<string, string>;
const later = <T>(value: T, ms = 20) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('HTTP client (product §7 General)', () => {
  it('prefixes /api, sends X-Requested-With, X-SPA-VERSION, and the XSRF token on unsafe methods only', async () => {
    await apiRequest('GET', '/devices');
    await apiRequest('POST', '/devices', { body: { a: 1 } });
    expect(calls[0]?.url).toBe('/api/devices');
    expect(headers(calls[0])['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers(calls[0])['X-SPA-VERSION']).toBe('5.14.0');
    expect(headers(calls[0])['X-XSRF-TOKEN']).toBeUndefined();
    expect(headers(calls[1])['X-XSRF-TOKEN']).toBe('xsrf-1');
    expect(calls[1]?.init.body).toBe('{"a":1}');
  });

  it('comma-joins lists and drops null and empty values', () => {
    expect(buildQuery({ fields: ['id', 'name'], q: '', x: null, y: undefined, limit: 10, empty: [] })).toBe(
      '?fields=id%2Cname&limit=10',
    );
  });

  it('a second GET to the same URL cancels the first, and both callers get the newer answer', async () => {
    let n = 0;
    responder = () => later(ok(++n));
    const [first, second] = await Promise.all([apiRequest('GET', '/devices'), apiRequest('GET', '/devices')]);
    expect(first.data).toBe(2);
    expect(second.data).toBe(2);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.init.signal?.aborted).toBe(true);
  });

  it('does not deduplicate when asked not to', async () => {
    let n = 0;
    responder = () => later(ok(++n));
    const results = await Promise.all([
      apiRequest('GET', '/x', { dedupe: false }),
      apiRequest('GET', '/x', { dedupe: false }),
    ]);
    expect(results.map((r) => r.data).sort()).toEqual([1, 2]);
  });

  it('cancels pending requests on route change, except those kept', async () => {
    responder = () => later(ok('done'), 50);
    const page = apiRequest('GET', '/devices');
    const header = apiRequest('GET', '/notifications', { keepOnRouteChange: true });
    cancelPending('Route changed');
    await expect(page).rejects.toEqual(new CancelledError('Route changed'));
    await expect(header).resolves.toMatchObject({ data: 'done' });
  });

  it('on a route change, keeps what was asked for once the address had changed (a save that navigates, then refreshes)', async () => {
    responder = () => later(ok('done'), 50);
    window.history.pushState(null, '', '/system/brands');
    const before = apiRequest('GET', '/brands');
    window.history.pushState(null, '', '/system/brands/7');
    const after = apiRequest('GET', '/brands/7');
    cancelPending('Route changed', '/system/brands/7');
    await expect(before).rejects.toEqual(new CancelledError('Route changed'));
    await expect(after).resolves.toMatchObject({ data: 'done' });
  });

  it('on 401 refreshes the session and resends once', async () => {
    let userCalls = 0;
    responder = async (call) => {
      if (call.url.endsWith('/token/refresh')) return json(200, { success: true, data: {} });
      userCalls += 1;
      return userCalls === 1
        ? json(401, { success: false, errors: [{ code: 'UNAUTHORIZED', message: 'x' }] })
        : ok('me');
    };
    await expect(apiRequest('GET', '/devices')).resolves.toMatchObject({ data: 'me' });
    expect(calls.map((c) => c.url)).toEqual(['/api/devices', '/api/auth/token/refresh', '/api/devices']);
  });

  it('resends at most once: a second 401 rejects', async () => {
    responder = async (call) =>
      call.url.endsWith('/token/refresh')
        ? json(200, { success: true, data: {} })
        : json(401, { success: false, errors: [{ code: 'UNAUTHORIZED', message: 'no' }] });
    await expect(apiRequest('GET', '/devices')).rejects.toBeInstanceOf(ApiError);
    expect(calls.filter((c) => c.url.endsWith('/token/refresh'))).toHaveLength(1);
  });

  it('rejects plainly on 401 for /account URLs', async () => {
    responder = async () => json(401, { success: false, errors: [] });
    await expect(apiRequest('POST', '/account/user', { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });

  it('on 423 asks for the password and resends after success', async () => {
    let n = 0;
    responder = async () =>
      ++n === 1
        ? json(423, {
            success: false,
            errors: [{ code: 'PASSWORD_CONFIRMATION_REQUIRED', message: 'Confirm' }],
          })
        : ok('done');
    const prompt = vi.fn().mockResolvedValue(true);
    clientHandlers.confirmPassword = prompt;
    await expect(apiRequest('DELETE', '/users/4')).resolves.toMatchObject({ data: 'done' });
    expect(prompt).toHaveBeenCalledWith('Confirm');
    expect(calls).toHaveLength(2);
  });

  it('on MFA_REQUIRED resends with the code and the session ids', async () => {
    responder = async (call) => {
      const body = JSON.parse(String(call.init.body));
      if (!body.session_code) {
        return json(401, {
          success: false,
          errors: [{ code: 'MFA_REQUIRED', message: 'Enter the code' }],
          meta: { mfa_method: 'totp', session_id: 's-1', session_uuid: 'u-1' },
        });
      }
      return ok(body);
    };
    clientHandlers.verify = (challenge) => {
      expect(challenge.method).toBe('totp');
      return challenge.submit('123456');
    };
    const result = await apiRequest('POST', '/tokens', { body: { name: 'ci' }, noRefresh: true });
    expect(result.data).toEqual({
      name: 'ci',
      session_code: '123456',
      session_id: 's-1',
      session_uuid: 'u-1',
    });
  });

  it('serves cached GETs for calls that ask for the cache', async () => {
    let n = 0;
    responder = async () => ok(++n);
    expect((await apiRequest('GET', '/roles', { cache: true })).data).toBe(1);
    expect((await apiRequest('GET', '/roles', { cache: true })).data).toBe(1);
    expect((await apiRequest('GET', '/roles')).data).toBe(2);
  });

  it('builds multipart bodies with indexed arrays, ISO dates and null as empty', () => {
    const form = toFormData({
      a: [1, 2],
      when: new Date('2026-01-02T03:04:05Z'),
      none: null,
      nested: { x: 'y' },
    });
    expect([...form.entries()]).toEqual([
      ['a[0]', '1'],
      ['a[1]', '2'],
      ['when', '2026-01-02T03:04:05.000Z'],
      ['none', ''],
      ['nested[x]', 'y'],
    ]);
  });
});
