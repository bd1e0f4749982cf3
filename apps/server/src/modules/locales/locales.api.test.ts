import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TestClient } from '#test/app';

/** Further languages: translation files an operator drops into DATA_DIR/locales. */
let app: FastifyInstance;
let dataDir: string;
const anonymous = () => new TestClient(app);

function drop(code: string, namespace: string, content: string) {
  mkdirSync(path.join(dataDir, 'locales', code), { recursive: true });
  writeFileSync(path.join(dataDir, 'locales', code, `${namespace}.json`), content);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'fleetgate-locales-'));
  drop('de', 'common', JSON.stringify({ 'action.save': 'Speichern', nested: { no: 1 }, 'n.number': 5 }));
  drop('pt-BR', 'shell', JSON.stringify({ 'nav.devices': 'Dispositivos' }));
  // A bundled language and a folder with no file are not "further" languages.
  drop('ja', 'common', '{}');
  mkdirSync(path.join(dataDir, 'locales', 'fr'), { recursive: true });
  app = await buildTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('further languages (product §2 Header widgets 3)', () => {
  it('lists the languages found, named in themselves, without signing in', async () => {
    const list = await anonymous().get('/api/locales');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      { code: 'de', name: 'Deutsch' },
      { code: 'pt-BR', name: 'Português (Brasil)' },
    ]);
  });

  it('serves a file’s texts only, and a file dropped later at once', async () => {
    const common = await anonymous().get('/api/locales/de/common');
    expect(common.json().data).toEqual({ 'action.save': 'Speichern' });
    expect((await anonymous().get('/api/locales/de/devices')).statusCode).toBe(404);
    drop('de', 'devices', JSON.stringify({ 'column.name': 'Name' }));
    expect((await anonymous().get('/api/locales/de/devices')).json().data).toEqual({ 'column.name': 'Name' });
    drop('it', 'common', JSON.stringify({ 'action.save': 'Salva' }));
    expect(
      (await anonymous().get('/api/locales')).json().data.map((l: { code: string }) => l.code),
    ).toContain('it');
  });

  it('failing-path-traversal: codes and namespaces outside their patterns never reach the disk', async () => {
    for (const url of [
      '/api/locales/..%2F..%2Fetc/passwd',
      '/api/locales/de/..%2Fcommon',
      '/api/locales/de/common.json',
      '/api/locales/DE/common',
    ]) {
      expect((await anonymous().get(url)).statusCode, url).toBeGreaterThanOrEqual(400);
    }
    drop('es', 'common', '{not json');
    expect((await anonymous().get('/api/locales/es/common')).statusCode).toBe(404);
  });
});
