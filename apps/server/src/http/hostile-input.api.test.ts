import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
import { tenantTree } from '#test/factories';
import { auditLog } from '../db/schema/audit';
import { TOO_DEEP_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from './input-guard';

/**
 * Input no route could store is a clear 400 before anything is written: the NUL bytes,
 * lone surrogates and deep nesting of the security review, sent as raw JSON the way an
 * attacker's script sends them.
 */
let app: FastifyInstance;
let admin: TestClient;
let roleId: number;
let tagId: number;
let deviceId: number;

beforeAll(async () => {
  app = await buildTestApp();
  const tree = await tenantTree(app);
  admin = await new TestClient(app).login();
  deviceId = (await registerDirect(app, testIdentity(), tree.acme.id)).id;
  const role = await admin.post('/api/roles', {
    company_id: tree.acme.id,
    name: 'hostile_probe',
    title: 'Probe',
    description: 'before',
    permissions: ['view_devices'],
  });
  roleId = role.json().data.id;
  const tag = await admin.post('/api/tags', {
    company_id: tree.acme.id,
    name: 'Probe tag',
    description: 'before',
  });
  tagId = tag.json().data.id;
});
afterAll(() => app.close());

/** Sends `payload` exactly as written (JSON escapes kept), signed in as the super admin. */
const raw = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload: string) =>
  app.inject({
    method,
    url,
    payload,
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': admin.cookies.get('XSRF-TOKEN')!,
    },
    cookies: Object.fromEntries(admin.cookies),
  });

const auditCount = async () => (await app.db.select({ id: auditLog.id }).from(auditLog)).length;

describe('failing-unstorable-text: NUL and lone surrogates are 400, and nothing is written', () => {
  it('a lone surrogate in a role, a device and a tag changes none of them and writes no audit row', async () => {
    const before = await auditCount();
    const attempts = [
      raw('PUT', `/api/roles/${roleId}`, '{"description":"x\\ud800","permissions":[]}'),
      raw('PUT', `/api/devices/${deviceId}`, '{"description":"x\\udc00"}'),
      raw('PUT', `/api/tags/${tagId}`, '{"description":"x\\ud800"}'),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)).toEqual([
        { code: 'VALIDATION_ERROR', message: UNSTORABLE_TEXT_MESSAGE, source: 'description' },
      ]);
    }
    const role = (await admin.get(`/api/roles/${roleId}`)).json().data;
    expect(role).toMatchObject({ description: 'before', permissions: ['view_devices'] });
    expect((await admin.get(`/api/tags/${tagId}`)).json().data.description).toBe('before');
    expect(await auditCount()).toBe(before);
  });

  it('NUL in a search, a sort, a serial and a description answers 400 naming the field', async () => {
    const search = await admin.get('/api/devices?q=a%00');
    expect(search.statusCode).toBe(400);
    expect(errorsOf(search)[0]).toMatchObject({ message: UNSTORABLE_TEXT_MESSAGE, source: 'q' });
    const sorted = await admin.get('/api/devices?sort=name%00');
    expect(sorted.statusCode, sorted.body).toBe(400);
    const serial = await raw(
      'POST',
      '/api/devices',
      '{"serial":"1234\\u00005678","mac":"00:11:22:33:44:55"}',
    );
    expect(errorsOf(serial)[0]).toMatchObject({ message: UNSTORABLE_TEXT_MESSAGE, source: 'serial' });
    const description = await raw('PUT', `/api/devices/${deviceId}`, '{"description":"a\\u0000b"}');
    expect(errorsOf(description)[0]).toMatchObject({
      message: UNSTORABLE_TEXT_MESSAGE,
      source: 'description',
    });
  });

  it('free-form values (per-user storage) are held to the same rule, keys included', async () => {
    const value = await raw('POST', '/api/storage', '{"key":"probe","value":{"a":"x\\u0000"}}');
    expect(errorsOf(value)[0]).toMatchObject({ message: UNSTORABLE_TEXT_MESSAGE, source: 'value.a' });
    const key = await raw('POST', '/api/storage', '{"key":"probe","value":{"a\\ud800":1}}');
    expect(key.statusCode).toBe(400);
    // A surrogate pair is text like any other.
    expect(
      (await raw('POST', '/api/storage', '{"key":"probe","value":{"a":"\\ud83d\\ude00"}}')).statusCode,
    ).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('a DELETE with a JSON content type and no body is a delete; a POST without its body is still refused', async () => {
    const doomed = await admin.post('/api/tags', { name: 'Doomed', color: '#228be6' });
    const id = doomed.json().data.id;
    const removed = await raw('DELETE', `/api/tags/${id}`, '');
    expect(removed.statusCode, removed.body).toBe(200);
    const empty = await raw('POST', '/api/tags', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe('Request body must not be empty');
  });

  it('prototype poisoning is still refused', async () => {
    const poisoned = await raw('POST', '/api/tags', '{"name":"x","__proto__":{"admin":true}}');
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('ids in the path are whole numbers, said in words', () => {
  it('a word, a fraction, zero and a number past the largest key are 400 naming the id', async () => {
    const cases = [
      ['abc', 'Id must be a whole number'],
      ['1.5', 'Id must be a whole number'],
      ['0', 'Id must be at least 1'],
      ['99999999999', 'Id must be at most 2147483647'],
    ] as const;
    for (const [id, message] of cases) {
      for (const path of [`/api/tags/${id}`, `/api/devices/${id}`, `/api/companies/${id}`]) {
        const response = await admin.get(path);
        expect(response.statusCode, path).toBe(400);
        expect(response.json().errors, path).toEqual([{ code: 'VALIDATION_ERROR', message, source: 'id' }]);
      }
    }
  });
});

describe('failing-deep-nesting: deeply nested bodies are 400, never 500', () => {
  it('arrays and objects nested thousands deep, in typed and free-form fields', async () => {
    const cases = [
      raw('PUT', `/api/roles/${roleId}`, `{"permissions":${'['.repeat(50_000)}${']'.repeat(50_000)}}`),
      raw('POST', '/api/tags', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`),
      raw('POST', '/api/storage', `{"key":"deep","value":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)[0]).toMatchObject({ code: 'VALIDATION_ERROR', message: TOO_DEEP_MESSAGE });
    }
    const role = (await admin.get(`/api/roles/${roleId}`)).json().data;
    expect(role.permissions).toEqual(['view_devices']);
  });

  it('ordinary nesting still passes', async () => {
    const nested = await raw(
      'POST',
      '/api/storage',
      '{"key":"shallow","value":{"a":[{"b":[1,2,{"c":"d"}]}]}}',
    );
    expect(nested.statusCode).toBe(200);
    const [stored] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'never-written'));
    expect(stored).toBeUndefined();
  });
});
