import { SIGN_IN_PATH } from '@fleetgate/shared/routes';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#test/app';

/**
 * Routes whose success is not a JSON body, so there is no response schema to declare: each
 * with the reason. Anything else that answers 2xx declares its schema (from
 * packages/shared/src/schemas), which serialises the answer and describes it at /api/docs.
 */
const NO_JSON_ANSWER = new Map([
  ['GET /api/devices/export', 'a CSV file'],
  ['GET /api/devices/commands/:commandId/file', 'the file an export command returned, as bytes'],
  ['GET /api/brands/:id/images/:kind', 'a brand image, as bytes'],
  ['GET /api/credits/report', 'the credit report, a CSV file'],
  ['GET /api/remote/sessions/:id/recording', 'a terminal recording, an asciicast v2 file'],
  ['GET /api/remote/sftp/:id/file', "a file of the device's, as bytes"],
]);

/** Not the product's routes: the API description itself and the console's built pages and files. */
const notOurs = (url: string) =>
  url.startsWith('/api/docs') || url === '/' || url === SIGN_IN_PATH || url === '/*';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
});
afterAll(() => app.close());

// HEAD routes are fastify's copies of the GET ones and answer no body.
const checked = (of: FastifyInstance) =>
  of.routeCatalog.filter((r) => r.method !== 'HEAD' && !notOurs(r.url));

/** The routes that answer JSON without a schema for it. */
const withoutSchema = (of: FastifyInstance) =>
  checked(of)
    .filter((r) => !NO_JSON_ANSWER.has(`${r.method} ${r.url}`))
    .filter((r) => !r.responses.some((code) => code.startsWith('2')))
    .map((r) => `${r.method} ${r.url}`);

describe('response contracts (docs/adding-a-feature.md, Contracts)', () => {
  it('every route that answers JSON declares the schema of its success', () => {
    expect(checked(app).length).toBeGreaterThan(80);
    expect(withoutSchema(app)).toEqual([]);
  });

  it('a route registered without a response schema is found', async () => {
    const local = await buildTestApp();
    try {
      local.get('/api/unanswered', { config: { access: { public: true } } }, async () => ({ ok: true }));
      local.get(
        '/api/answered',
        { config: { access: { public: true } }, schema: { response: { 200: { type: 'object' } } } },
        async () => ({}),
      );
      expect(withoutSchema(local)).toEqual(['GET /api/unanswered']);
    } finally {
      await local.close();
    }
  });

  it('every route listed as answering no JSON exists and indeed declares no schema', () => {
    const byName = new Map(checked(app).map((r) => [`${r.method} ${r.url}`, r]));
    for (const name of NO_JSON_ANSWER.keys()) {
      expect(byName.has(name), name).toBe(true);
      expect(byName.get(name)?.responses, name).toEqual([]);
    }
  });
});
