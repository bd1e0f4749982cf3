import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, testConfig } from '#test/app';
import { openTestDatabase } from '#test/database';
import { build } from '../app';
import { COMPRESSION_THRESHOLD } from './compression';

/**
 * What the console's delivery promises on every answer: the security headers (docs/security.md,
 * Response headers), compression and caching. The built console is stood in for by a small
 * web root with one hashed script and its precompressed copies, laid out as the build writes them.
 */
let app: FastifyInstance;
let admin: TestClient;
let webRoot: string;

const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const SCRIPT_PATH = '/assets-static/index-AbC123xy.js';

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), 'fleetgate-web-'));
  mkdirSync(path.join(webRoot, 'assets-static'));
  writeFileSync(
    path.join(webRoot, 'index.html'),
    `<!doctype html><html><head><script type="module" src="${SCRIPT_PATH}"></script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(
    path.join(webRoot, 'sign-in.html'),
    '<!doctype html><html><head><script type="module" src="/assets-static/sign-in-AbC123xy.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webRoot, SCRIPT_PATH), SCRIPT);
  writeFileSync(path.join(webRoot, `${SCRIPT_PATH}.br`), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(webRoot, `${SCRIPT_PATH}.gz`), gzipSync(SCRIPT));
  app = await build(testConfig(), { database: await openTestDatabase(), webRoot });
  app.get('/test-only/boom', { schema: { hide: true } }, async () => {
    throw new Error('an unexpected failure');
  });
  admin = await new TestClient(app).login();
});
afterAll(async () => {
  await app.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

/** The headers every answer carries, page, file, API or error alike. */
function expectSecurityHeaders(response: LightMyRequestResponse) {
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self';");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org https: http:");
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['permissions-policy']).toContain('camera=()');
  expect(response.headers['permissions-policy']).toContain('microphone=()');
  expect(response.headers['permissions-policy']).toContain('geolocation=()');
  // Plain http here: no HSTS, no upgrade of the console's own requests.
  expect(response.headers['strict-transport-security']).toBeUndefined();
  expect(csp).not.toContain('upgrade-insecure-requests');
}

/** What every API answer carries: a JSON API's set, which refuses everything a page might do. */
function expectApiSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(response.headers['permissions-policy']).toContain('camera=()');
  expect(response.headers['strict-transport-security']).toBeUndefined();
  // The page-only legacy headers stay on pages.
  expect(response.headers['x-dns-prefetch-control']).toBeUndefined();
}

describe('security headers on every answer', () => {
  it('the console page carries them and is revalidated on every load', async () => {
    const page = await get('/');
    expect(page.statusCode).toBe(200);
    expectSecurityHeaders(page);
    expect(page.headers['cache-control']).toBe('no-cache');
    // A route the console's router knows answers the same page, with the same headers.
    const deep = await get('/devices/list');
    expect(deep.statusCode).toBe(200);
    expectSecurityHeaders(deep);
  });

  it('the sign-in page is its own document, with the same headers; the rest of the account side is the console', async () => {
    for (const url of [
      '/account/login',
      '/account/login/?continue_url=%2Fdevices',
      '/account/login?reason=idle',
    ]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('sign-in-AbC123xy.js');
      expect(page.headers['cache-control']).toBe('no-cache');
      expectSecurityHeaders(page);
    }
    const settings = await get('/account/settings/profile');
    expect(settings.body).toContain(SCRIPT_PATH);
    expect(settings.body).not.toContain('sign-in-');
  });

  it('a page whose address holds text no route could store is still the console; the API refuses it', async () => {
    const page = await get('/management/devices?q=a%00b');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(SCRIPT_PATH);
    const api = await admin.get('/api/devices?q=a%00b');
    expect(api.statusCode).toBe(400);
    expect(api.json().errors[0]).toMatchObject({ source: 'q' });
  });

  it('a hashed file carries them and is cached for a year', async () => {
    const script = await get(SCRIPT_PATH);
    expect(script.statusCode).toBe(200);
    expectSecurityHeaders(script);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('API answers carry them and are never stored, signed in or not', async () => {
    const signedIn = await admin.get('/api/user');
    expect(signedIn.statusCode).toBe(200);
    expectApiSecurityHeaders(signedIn);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const anonymous = await get('/api/user', { 'x-requested-with': 'XMLHttpRequest' });
    expect(anonymous.statusCode).toBe(401);
    expectApiSecurityHeaders(anonymous);
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('the API description is a page, with the page headers', async () => {
    const docs = await get('/api/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    expectSecurityHeaders(docs);
  });

  it('an API answer that chooses its own caching keeps it', async () => {
    const locales = await get('/api/locales', { 'x-requested-with': 'XMLHttpRequest' });
    expect(locales.statusCode).toBe(200);
    expect(locales.headers['cache-control']).toBe('no-cache');
  });

  it('404s and 500s carry them too', async () => {
    const noRoute = await admin.get('/api/nope');
    expect(noRoute.statusCode).toBe(404);
    expectApiSecurityHeaders(noRoute);
    expect(noRoute.headers['cache-control']).toBe('no-store');
    const noFile = await get('/assets-static/missing-AbC123xy.js');
    expect(noFile.statusCode).toBe(404);
    expectSecurityHeaders(noFile);
    const failure = await get('/test-only/boom');
    expect(failure.statusCode).toBe(500);
    expectSecurityHeaders(failure);
  });
});

describe('compression', () => {
  it('a JSON answer over 1 KB comes back brotli-compressed when asked, and gzip when only that is offered', async () => {
    const plain = await admin.get('/api/roles');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);

    const br = await admin.get('/api/roles', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await admin.get('/api/roles', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('a tiny answer goes out as it is', async () => {
    const tiny = await get('/api/locales', {
      'x-requested-with': 'XMLHttpRequest',
      'accept-encoding': 'br, gzip',
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.json()).toMatchObject({ success: true });
  });

  it('a hashed file is sent as the build compressed it, chosen by Accept-Encoding', async () => {
    const br = await get(SCRIPT_PATH, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/javascript/);
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get(SCRIPT_PATH, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get(SCRIPT_PATH);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.payload).toBe(SCRIPT);
  });
});
