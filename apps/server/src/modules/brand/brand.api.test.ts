import { BRAND_IMAGE_MAX_BYTES, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { brandImages, brands } from '#src/db/schema/brands';
import { settings } from '#src/db/schema/settings';
import { buildTestApp, errorsOf, TestClient, upload } from '#test/app';
import { createUser, signedIn } from '#test/factories';

let app: FastifyInstance;
let root: TestClient;
let admin: TestClient;
let defaultId: number;

const LOCAL = { host: 'localhost:3000' };
const LOOPBACK = { host: '127.0.0.1:3000' };

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const HOSTILE_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">' +
  '<script>alert(document.cookie)</script>' +
  '<image xlink:href="https://evil.test/track.png" width="10" height="10"/>' +
  '<rect width="10" height="10" fill="#1c7ed6"/></svg>';

const brandOf = async (client: TestClient, headers = LOCAL) => {
  const response = await client.get('/api/brand', headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

const allBrands = async () => {
  const response = await root.get('/api/brands');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: number; host: string | null; default: boolean; app_name: string }[];
};

async function createBrand(body: Record<string, unknown>) {
  const response = await root.post('/api/brands', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: number; host: string | null; default: boolean };
}

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  await createUser(app, 'admin@root.test', 'admin', 1);
  admin = await signedIn(app, 'admin@root.test');
  defaultId = (await allBrands())[0]!.id;
});
afterAll(() => app.close());

describe('the default brand (migration 0018)', () => {
  it('one default brand row holds the product’s look, and the settings row is gone', async () => {
    const rows = await app.db.select().from(brands);
    expect(rows).toMatchObject([{ id: defaultId, host: null, isDefault: true, settings: {} }]);
    expect(await app.db.select().from(settings).where(eq(settings.key, 'brand'))).toEqual([]);
  });

  it('serves every host name, anonymous callers included, as the default brand', async () => {
    const anonymous = new TestClient(app);
    expect(await brandOf(anonymous, LOCAL)).toEqual(DEFAULT_BRAND);
    expect(await brandOf(anonymous, LOOPBACK)).toEqual({ ...DEFAULT_BRAND, default: true });
  });
});

describe('brands by host name (product §1)', () => {
  it('successful-brand-creation: a brand for localhost is served there, the default elsewhere', async () => {
    const created = await createBrand({ host: 'LocalHost', app_name: 'Local RMS', default: false });
    expect(created).toMatchObject({ host: 'localhost', default: false, app_name: 'Local RMS' });

    const anonymous = new TestClient(app);
    expect(await brandOf(anonymous, LOCAL)).toMatchObject({ app_name: 'Local RMS', default: false });
    expect(await brandOf(anonymous, { host: 'LOCALHOST' })).toMatchObject({ app_name: 'Local RMS' });
    expect(await brandOf(anonymous, LOOPBACK)).toMatchObject({ app_name: 'Fleetgate', default: true });

    const list = await allBrands();
    expect(list.map((b) => [b.host, b.default])).toEqual([
      [null, true],
      ['localhost', false],
    ]);
    const [audit] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'brand.create'));
    expect(audit).toMatchObject({ targetType: 'brand', targetId: String(created.id) });
  });

  it('lists the default first, then by host name', async () => {
    await createBrand({ host: 'b.example.test', app_name: 'B', default: false });
    await createBrand({ host: 'a.example.test', app_name: 'A', default: false });
    expect((await allBrands()).map((b) => b.host)).toEqual([
      null,
      'a.example.test',
      'b.example.test',
      'localhost',
    ]);
  });

  it('failing-brand-host-taken: a host name has one brand, whatever its case', async () => {
    const taken = await root.post('/api/brands', { host: 'LOCALHOST', default: false });
    expect(taken.statusCode).toBe(422);
    expect(errorsOf(taken)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'This host name already has a brand', source: 'host' },
    ]);
    const b = (await allBrands()).find((x) => x.host === 'b.example.test')!;
    const moved = await root.put(`/api/brands/${b.id}`, { host: 'localhost', app_name: 'B', default: false });
    expect(moved.statusCode).toBe(422);
    expect(errorsOf(moved)[0]).toMatchObject({ source: 'host' });
    expect((await allBrands()).find((x) => x.id === b.id)?.host).toBe('b.example.test');
  });

  it('refuses a host name with a scheme or a port', async () => {
    for (const host of ['https://x.test', 'x.test:8080', 'x y']) {
      const response = await root.post('/api/brands', { host, default: false });
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)[0]).toMatchObject({ source: 'host' });
    }
  });

  it('refuses a brand other than the default without a host name: no address would show it', async () => {
    const before = await allBrands();
    for (const response of [
      await root.post('/api/brands', { app_name: 'Nowhere' }),
      await root.post('/api/brands', { host: null, default: false }),
      await root.put(`/api/brands/${before.find((b) => b.host === 'b.example.test')!.id}`, { host: null }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)).toEqual([
        {
          code: 'VALIDATION_ERROR',
          message: 'Enter the host name this brand serves; only the default brand may leave it empty',
          source: 'host',
        },
      ]);
    }
    expect(await allBrands()).toEqual(before);
  });

  it('unknown brands are not found', async () => {
    for (const response of [
      await root.put('/api/brands/999999', { host: 'nobody.example.test', default: false }),
      await root.delete('/api/brands/999999'),
      await upload(root, '/api/brands/999999/images/logo', 'logo.svg', HOSTILE_LOGO, 'image/svg+xml'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(errorsOf(response)).toEqual([{ code: 'NOT_FOUND', message: 'Brand not found' }]);
    }
    const image = await new TestClient(app).get('/api/brands/999999/images/logo');
    expect(image.statusCode).toBe(404);
    expect(errorsOf(image)).toEqual([{ code: 'NOT_FOUND', message: 'Brand image not found' }]);
  });

  it('deletes a brand: its host falls back to the default brand', async () => {
    const doomed = await createBrand({ host: 'doomed.example.test', app_name: 'Doomed', default: false });
    const response = await root.delete(`/api/brands/${doomed.id}`);
    expect(response.json()).toMatchObject({ data: { id: doomed.id }, message: 'Brand deleted successfully' });
    expect(await brandOf(root, { host: 'doomed.example.test' })).toMatchObject({ app_name: 'Fleetgate' });
  });
});

describe('the default brand’s rules', () => {
  it('failing-default-brand-delete: the default brand cannot be deleted', async () => {
    const response = await root.delete(`/api/brands/${defaultId}`);
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'The default brand cannot be deleted' },
    ]);
  });

  it('failing-default-brand-unset: the only default stays one until another takes over', async () => {
    const response = await root.put(`/api/brands/${defaultId}`, {
      host: 'moved.example.test',
      default: false,
    });
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Make another brand the default first', source: 'default' },
    ]);
    expect((await allBrands())[0]).toMatchObject({ id: defaultId, default: true });
  });

  it('saving a brand as the default makes every other brand non-default', async () => {
    const a = (await allBrands()).find((x) => x.host === 'a.example.test')!;
    const response = await root.put(`/api/brands/${a.id}`, {
      host: 'a.example.test',
      app_name: 'A',
      default: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      data: { id: a.id, default: true },
      message: 'Brand updated successfully',
    });
    const list = await allBrands();
    expect(list.filter((b) => b.default).map((b) => b.id)).toEqual([a.id]);
    expect(list[0]?.id).toBe(a.id);
    // The loopback address has no brand of its own: the new default serves it.
    expect(await brandOf(root, LOOPBACK)).toMatchObject({ app_name: 'A', default: true });

    // And back: the first default brand is the default again, A a host brand.
    const back = await root.put(`/api/brands/${defaultId}`, { default: true });
    expect(back.statusCode, back.body).toBe(200);
    expect((await allBrands()).filter((b) => b.default).map((b) => b.id)).toEqual([defaultId]);
    expect(await brandOf(root, LOOPBACK)).toMatchObject({ app_name: 'Fleetgate', default: true });
  });
});

describe('what a brand may hold', () => {
  it('refuses a colour that is not #RRGGBB and an image that is not a path on this console', async () => {
    for (const main_color of ['#fff;}body{display:none', 'red']) {
      for (const response of [
        await root.put('/api/brand', { main_color }, LOOPBACK),
        await root.post('/api/brands', { host: 'colour.example.test', main_color, default: false }),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(errorsOf(response)).toEqual([
          { code: 'VALIDATION_ERROR', message: 'Enter a colour as #RRGGBB', source: 'main_color' },
        ]);
      }
    }
    for (const favicon of ['https://evil.test/x.png', '//evil.test/x.png', 'javascript:alert(1)']) {
      const response = await root.put('/api/brand', { favicon }, LOOPBACK);
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)[0]).toMatchObject({ source: 'favicon' });
    }
    expect(await brandOf(root, LOOPBACK)).toMatchObject({ main_color: DEFAULT_BRAND.main_color });
  });
});

describe('PUT /api/brand (the clients made before host names)', () => {
  it('changes the brand of the request’s host name, and the next GET shows it at once', async () => {
    const before = await brandOf(root, LOCAL);
    const response = await root.put('/api/brand', { ...before, app_name: 'Local Two' }, LOCAL);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      data: { app_name: 'Local Two', default: false },
      message: 'Brand updated successfully',
    });
    expect(await brandOf(new TestClient(app), LOCAL)).toMatchObject({ app_name: 'Local Two' });
    expect((await allBrands()).find((b) => b.host === 'localhost')).toMatchObject({ default: false });
    expect(await brandOf(root, LOOPBACK)).toMatchObject({ app_name: 'Fleetgate' });
  });

  it('changes the default brand for a host name no brand names', async () => {
    const response = await root.put('/api/brand', { app_name: 'Console', main_color: '#123456' }, LOOPBACK);
    expect(response.statusCode, response.body).toBe(200);
    expect(await brandOf(new TestClient(app), LOOPBACK)).toMatchObject({
      app_name: 'Console',
      main_color: '#123456',
      default: true,
    });
    const [row] = await app.db.select().from(brands).where(eq(brands.id, defaultId));
    expect(row).toMatchObject({ host: null, isDefault: true });
    expect(row?.settings).not.toHaveProperty('default');
  });

  it('a change written behind the app’s back (another server) is seen on the next request', async () => {
    await app.db
      .update(brands)
      .set({ settings: sql`${brands.settings} || '{"app_name":"Elsewhere"}'::jsonb` })
      .where(eq(brands.id, defaultId));
    expect(await brandOf(new TestClient(app), LOOPBACK)).toMatchObject({ app_name: 'Elsewhere' });
    expect(await app.mail.appName()).toBe('Elsewhere');
  });
});

describe('failing-brand-change-by-admin: only the super admin changes brands', () => {
  it('an admin gets 403 on every changing route, and nothing changes', async () => {
    const rowsBefore = await app.db.select().from(brands);
    const calls = [
      () => admin.put('/api/brand', { app_name: 'Hijacked' }, LOCAL),
      () => admin.get('/api/brands'),
      () => admin.post('/api/brands', { host: 'admin.example.test', default: true }),
      () => admin.put(`/api/brands/${defaultId}`, { app_name: 'Hijacked' }),
      () => admin.delete(`/api/brands/${rowsBefore.find((b) => !b.isDefault)!.id}`),
      () => upload(admin, `/api/brands/${defaultId}/images/logo`, 'logo.svg', HOSTILE_LOGO, 'image/svg+xml'),
    ];
    for (const call of calls) {
      const response = await call();
      expect(response.statusCode, response.body).toBe(403);
    }
    expect(await app.db.select().from(brands)).toEqual(rowsBefore);
    expect(await app.db.select().from(brandImages)).toEqual([]);
  });
});

describe('brand images', () => {
  it('an uploaded SVG logo is served back without its script and external link, with a strict CSP', async () => {
    const response = await upload(
      root,
      `/api/brands/${defaultId}/images/logo`,
      'logo.svg',
      HOSTILE_LOGO,
      'image/svg+xml',
    );
    expect(response.statusCode, response.body).toBe(200);
    const record = response.json();
    expect(record.message).toBe('Brand image uploaded successfully');
    const address = record.data.logo_vector as string;
    expect(address).toMatch(new RegExp(`^/api/brands/${defaultId}/images/logo\\?v=[0-9a-f]{12}$`));
    expect(await brandOf(new TestClient(app), LOOPBACK)).toMatchObject({ logo_vector: address });

    // As an <img> or the tab's icon asks for it: no X-Requested-With, no cookie.
    const served = await app.inject({ method: 'GET', url: address });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.body).toContain('<rect width="10" height="10" fill="#1c7ed6"/>');
    expect(served.body).not.toMatch(/script|alert|onload|evil\.test/);

    const [image] = await app.db.select().from(brandImages).where(eq(brandImages.brandId, defaultId));
    expect(served.headers.etag).toBe(`"${image?.digest}"`);
    expect(address.endsWith(image!.digest.slice(0, 12))).toBe(true);

    // Without the version (or an old one) the browser asks again each time.
    const unversioned = await new TestClient(app).get(`/api/brands/${defaultId}/images/logo`);
    expect(unversioned.headers['cache-control']).toBe('no-cache');
    const again = await new TestClient(app).get(`/api/brands/${defaultId}/images/logo`, {
      'if-none-match': served.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);

    const audits = await app.db.select().from(auditLog).where(eq(auditLog.action, 'brand.image'));
    expect(audits).toHaveLength(1);
  });

  it('refuses an HTML page named logo.svg, and a PNG as a logo', async () => {
    const html = '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>';
    for (const [name, content, type] of [
      ['logo.svg', html, 'image/svg+xml'],
      ['logo.png', PNG, 'image/png'],
    ] as const) {
      const response = await upload(root, `/api/brands/${defaultId}/images/logo`, name, content, type);
      expect(response.statusCode).toBe(422);
      expect(errorsOf(response)).toEqual([
        { code: 'VALIDATION_ERROR', message: 'The logo must be an SVG image', source: 'file' },
      ]);
    }
  });

  it('refuses a file over 256 KB', async () => {
    const big = `<svg xmlns="http://www.w3.org/2000/svg"><!--${'x'.repeat(BRAND_IMAGE_MAX_BYTES)}--></svg>`;
    const response = await upload(
      root,
      `/api/brands/${defaultId}/images/logo`,
      'logo.svg',
      big,
      'image/svg+xml',
    );
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'The file must be at most 256 KB', source: 'file' },
    ]);
  });

  it('accepts a PNG favicon by its content, and refuses what is no image', async () => {
    const response = await upload(
      root,
      `/api/brands/${defaultId}/images/favicon`,
      'icon.bin',
      PNG,
      'application/octet-stream',
    );
    expect(response.statusCode, response.body).toBe(200);
    const address = response.json().data.favicon as string;
    expect(address).toMatch(/\/images\/favicon\?v=[0-9a-f]{12}$/);
    const served = await new TestClient(app).get(address);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const text = await upload(
      root,
      `/api/brands/${defaultId}/images/favicon`,
      'favicon.png',
      'GIF89a nonsense',
      'image/png',
    );
    expect(text.statusCode).toBe(422);
    expect(errorsOf(text)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'The favicon must be an SVG, PNG or ICO image', source: 'file' },
    ]);
  });

  it('a branded model’s picture: stored for a model of the brand, set on its entry, served by address', async () => {
    const brand = await createBrand({
      host: 'models.example.test',
      default: false,
      branded_devices: [{ original_model: 'RUT241', branded_model: 'Acme R1' }],
    });
    const url = (model: string) => `/api/brands/${brand.id}/images/model?model=${model}`;

    const unknown = await upload(root, url('RUTX11'), 'r.png', PNG, 'image/png');
    expect(unknown.statusCode).toBe(422);
    expect(errorsOf(unknown)[0]).toMatchObject({
      message: 'Add the model to the branded devices first',
      source: 'model',
    });
    const unnamed = await upload(root, `/api/brands/${brand.id}/images/model`, 'r.png', PNG, 'image/png');
    expect(errorsOf(unnamed)[0]).toMatchObject({
      message: 'Name the model the picture is for',
      source: 'model',
    });
    const html = await upload(root, url('rut241'), 'r.svg', '<html><body>hi</body></html>', 'image/svg+xml');
    expect(errorsOf(html)[0]?.message).toBe('The model picture must be an SVG or PNG image');

    const saved = await upload(root, url('rut241'), 'r.png', PNG, 'image/png');
    expect(saved.statusCode, saved.body).toBe(200);
    const [entry] = saved.json().data.branded_devices;
    expect(entry.branded_model_image).toMatch(
      new RegExp(`^/api/brands/${brand.id}/images/model\\?model=RUT241&v=[0-9a-f]{12}$`),
    );
    const served = await app.inject({ method: 'GET', url: entry.branded_model_image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ method: 'GET', url: url('RUTX11') })).statusCode).toBe(404);
    // Anyone on that host sees the picture with the brand.
    const shown = await brandOf(new TestClient(app), { host: 'models.example.test' });
    expect(shown.branded_devices[0].branded_model_image).toBe(entry.branded_model_image);
  });

  it('a deleted brand takes its images with it', async () => {
    const doomed = await createBrand({ host: 'images.example.test', default: false });
    await upload(root, `/api/brands/${doomed.id}/images/favicon`, 'favicon.png', PNG, 'image/png');
    expect((await root.delete(`/api/brands/${doomed.id}`)).statusCode).toBe(200);
    expect(
      await app.db
        .select()
        .from(brandImages)
        .where(inArray(brandImages.brandId, [doomed.id])),
    ).toEqual([]);
  });
});

describe('devices CSV export (product §1 branded_devices)', () => {
  it('names each model as the brand of the request’s host name does; the JSON list keeps the raw model', async () => {
    const created = await root.post('/api/devices', {
      serial: 'BRAND0001',
      mac: '00:1E:42:00:BB:01',
      company_id: 1,
      model: 'RUTX11',
    });
    expect(created.statusCode, created.body).toBe(200);
    const local = await brandOf(root, LOCAL);
    const saved = await root.put(
      '/api/brand',
      { ...local, branded_devices: [{ original_model: 'rutx11', branded_model: 'Acme Edge 11' }] },
      LOCAL,
    );
    expect(saved.statusCode, saved.body).toBe(200);

    const modelOf = async (headers: Record<string, string>) => {
      const csv = await root.get('/api/devices/export?sort=serial', headers);
      expect(csv.statusCode).toBe(200);
      const [header, ...lines] = csv.body.trim().split('\r\n');
      const column = header!.split(',').indexOf('model');
      const line = lines.find((l) => l.includes('BRAND0001'))!;
      return line.split(',')[column];
    };
    expect(await modelOf(LOCAL)).toBe('Acme Edge 11');
    expect(await modelOf(LOOPBACK)).toBe('RUTX11');

    const list = (await root.get('/api/devices?q=BRAND0001&fields=model,original_model', LOCAL)).json();
    expect(list.data[0].model).toBe('RUTX11');
  });
});
