import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('brand disabled_routes (product §1, §2 Navigation, §5)', () => {
  it('hides disabled entries, drops groups left empty, and redirects their pages and tabs', async () => {
    const admin = await signedInPage(browser, server.url);
    const saved = await pageApi(admin.page, 'PUT', '/api/brand', {
      disabled_routes: ['remote.access', 'service.connect-history', 'company.info', 'reports'],
    });
    expect(saved.status).toBe(200);

    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    await page.getByTestId('nav-group-devices').waitFor();
    // Connect held only the two disabled entries: the whole group is gone.
    expect(await page.getByTestId('nav-group-connect').count()).toBe(0);
    const management = await page
      .getByTestId('nav-items-devices')
      .locator('a[href]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(management).not.toContain('/reports');
    for (const path of ['/remote/access', '/reports/periodic/day', '/companies/1/users']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/management/devices');
    }
    await page.goto('/companies');
    await page.getByTestId('page-frame').waitFor();
    expect(new URL(page.url()).pathname).toBe('/companies');
    await context.close();

    expect((await pageApi(admin.page, 'PUT', '/api/brand', { disabled_routes: [] })).status).toBe(200);
    await admin.context.close();
  });

  it('with nothing left to view, the user gets the Access denied page', async () => {
    const admin = await signedInPage(browser, server.url);
    const everything = [
      'management.devices',
      'hotspot.wifi',
      'task-manager',
      'reports',
      'management.automations',
      'dynamic.parameters',
      'files.main',
      'statistics.main',
      'tags.main',
      'multiconfig',
      'remote.access',
      'service.connect-history',
      'vpn.hubs',
      'vpn.quick-connect',
      'users.companies',
      'users',
      'administration.resources',
      'service.add-credits',
      'update_firmware',
      'upload_backup',
    ];
    expect((await pageApi(admin.page, 'PUT', '/api/brand', { disabled_routes: everything })).status).toBe(
      200,
    );
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await page.getByText('User has no view permissions available').waitFor();
    await screenshot(page, 'access-denied');
    await context.close();
    expect((await pageApi(admin.page, 'PUT', '/api/brand', { disabled_routes: [] })).status).toBe(200);
    await admin.context.close();
  });

  it('only the super admin may change the brand, and bad values are refused with the field named', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    expect((await pageApi(page, 'PUT', '/api/brand', { disabled_routes: [] })).status).toBe(403);
    await context.close();
    const admin = await signedInPage(browser, server.url);
    const bad = await pageApi<{ errors: { source?: string }[] }>(admin.page, 'PUT', '/api/brand', {
      main_color: 'red',
      extra: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.source).sort()).toEqual(['extra', 'main_color']);
    await admin.context.close();
  });
});
