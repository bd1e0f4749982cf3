import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from './support';

/** Waits long enough for a loaded machine (two e2e files run at once). */
const WAIT = { timeout: 10_000, interval: 100 };

/**
 * The devices table in Chromium: real server, real simulator, live status,
 * search, sort, filters in the address, column settings per user, bulk actions with a
 * result per device, CSV export, adding devices; guests and other tenants.
 */

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let acme: number;
let beta: number;
const ACME_FLEET = fleetDevices(71, 3);
const BETA_FLEET = fleetDevices(72, 1);
let ids: Map<string, number>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  acme = await companyId(page, 'Acme');
  beta = await companyId(page, 'Beta');
  ids = await registerDevices(
    page,
    acme,
    ACME_FLEET.map((d, i) => ({ ...d, name: `Acme router ${i + 1}` })),
  );
  await registerDevices(page, beta, [{ ...BETA_FLEET[0]!, name: 'Beta router' }]);
  await context.close();
  sim = new Simulator({ port: await brokerPort(server), fleet: 71, count: 3, company: acme });
});
afterAll(async () => {
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

const rows = (page: Page) => page.getByTestId('device-row');
const rowOf = (page: Page, serial: string) =>
  page.locator(`[data-testid="device-row"][data-serial="${serial}"]`);
const statusOf = (page: Page, serial: string) =>
  rowOf(page, serial).getByTestId('device-status').textContent();

describe('devices table', () => {
  it('shows devices come online live, searches, sorts and filters on the server', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/management/devices');
    await expect.poll(() => rows(page).count(), WAIT).toBe(ACME_FLEET.length + BETA_FLEET.length);
    if (sim.running) {
      // A retry after a failure: take the fleet away first, so that coming online is seen again.
      await sim.stop();
      for (const d of ACME_FLEET) await expect.poll(() => statusOf(page, d.serial), WAIT).toBe('Offline');
    } else {
      for (const d of ACME_FLEET) await expect.poll(() => statusOf(page, d.serial), WAIT).toBe('Pending');
    }
    // A mark on the window proves that what follows happens without a reload.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));

    sim.start();
    for (const d of ACME_FLEET) {
      await expect.poll(() => statusOf(page, d.serial), { timeout: 20_000 }).toBe('Online');
    }
    expect(await page.evaluate(() => (window as { __noReload?: boolean }).__noReload)).toBe(true);
    await expect.poll(() => statusOf(page, BETA_FLEET[0]!.serial), WAIT).toBe('Pending');
    await screenshot(page, 'devices-table');

    // Search (debounced, product §9 500 ms): one request for the whole word, on the server.
    const searched: URL[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/devices' && url.searchParams.has('q')) searched.push(url);
    });
    const target = ACME_FLEET[1]!;
    await page.getByTestId('device-search').pressSequentially(target.serial.slice(-6), { delay: 40 });
    await expect.poll(() => rows(page).count(), WAIT).toBe(1);
    await expect.poll(() => rowOf(page, target.serial).count(), WAIT).toBe(1);
    expect(searched).toHaveLength(1);
    expect(searched[0]!.searchParams.get('search-fields')).toBe('name,serial,mac,imei');
    await page.waitForURL((url) => url.searchParams.get('q') === target.serial.slice(-6));
    await page.getByTestId('device-search').fill('');
    await expect.poll(() => rows(page).count(), WAIT).toBe(4);

    // Sort by serial, descending on the second click.
    await page.getByTestId('sort-serial').click();
    await page.getByTestId('sort-serial').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === '-serial');
    const serials = [...ACME_FLEET, ...BETA_FLEET]
      .map((d) => d.serial)
      .sort()
      .reverse();
    await expect
      .poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-serial'))), WAIT)
      .toEqual(serials);

    // Filters live in the address: status Online and company Acme.
    await page.goto(`/management/devices?status=1&company_id=${acme}`);
    await expect.poll(() => rows(page).count(), WAIT).toBe(ACME_FLEET.length);
    await page.goto(`/management/devices?company_id=${beta}`);
    await expect.poll(() => rows(page).count(), WAIT).toBe(1);
    await context.close();
  });

  it('keeps column settings per user, exports CSV, and runs a bulk action with a result per device', async () => {
    const { context, page } = await signedInPage(browser, server.url, undefined, { acceptDownloads: true });
    await page.goto(`/management/devices?company_id=${acme}`);
    await expect.poll(() => rows(page).count(), WAIT).toBe(ACME_FLEET.length);

    // Table settings (product §2): hide Model, make rows compact; both survive a reload.
    await page.getByTestId('table-settings-open').click();
    const settings = page.getByTestId('table-settings');
    await settings.locator('[data-column="model"]').getByRole('checkbox').uncheck();
    await settings.getByText('Compact').click();
    await expect.poll(() => page.locator('th[data-column="model"]').count(), WAIT).toBe(0);
    await expect
      .poll(() => page.getByTestId('devices-table').getAttribute('data-density'), WAIT)
      .toBe('compact');
    await page.keyboard.press('Escape');
    await page.reload();
    await expect.poll(() => rows(page).count(), WAIT).toBe(ACME_FLEET.length);
    expect(await page.locator('th[data-column="model"]').count()).toBe(0);
    expect(await page.getByTestId('devices-table').getAttribute('data-density')).toBe('compact');

    // CSV export of the filtered list.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('devices-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe('devices.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    for (const d of ACME_FLEET) expect(csv).toContain(d.serial);
    expect(csv).not.toContain(BETA_FLEET[0]!.serial);

    // Bulk reboot: one row checked, then every device matching the filter (product §7 {action, device_id[]}),
    // a result per device and live steps per device.
    const bodies: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/devices/actions') && r.method() === 'POST') bodies.push(r.postDataJSON());
    });
    await rowOf(page, ACME_FLEET[0]!.serial).getByTestId('select-row').check();
    await expect.poll(() => page.getByTestId('bulk-count').textContent(), WAIT).toBe('1 device selected');
    await page.getByTestId('select-all-matching').click();
    await expect
      .poll(() => page.getByTestId('bulk-count').textContent(), WAIT)
      .toBe(`All ${ACME_FLEET.length} devices matching the filter are selected`);
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Reboot' }).click();
    await page.getByTestId('device-action-confirm').click();
    // product §4: on success the action's dialog closes and 'Action status' opens: one window, with
    // a step row per device, and the answer's summary shown once (the toast says what was sent).
    const summary = `${ACME_FLEET.length} of ${ACME_FLEET.length} devices accepted the action`;
    await page.getByText('Reboot sent successfully').waitFor();
    await page.getByTestId('device-action-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('window').count(), WAIT).toBe(1);
    expect(await page.getByTestId('window-title').allTextContents()).toEqual(['Action status']);
    await expect.poll(() => page.getByText(summary).count(), WAIT).toBe(1);
    expect(await page.getByTestId('action-status-summary').textContent()).toBe(summary);
    expect(await page.getByTestId('bulk-results').count()).toBe(0);
    const all = ACME_FLEET.map((d) => ids.get(d.serial)!).sort((a, b) => a - b);
    expect(bodies).toEqual([{ action: 'reboot', device_id: all, params: {} }]);
    const items = page.getByTestId('action-status-item');
    await expect.poll(() => items.count(), WAIT).toBe(ACME_FLEET.length);
    for (const id of all) {
      const item = page.locator(`[data-testid="action-status-item"][data-device-id="${id}"]`);
      await expect.poll(() => item.getAttribute('data-status'), { timeout: 20_000 }).toBe('done');
    }
    // Still one window and one summary once every device is done.
    expect(await page.getByTestId('window').count()).toBe(1);
    expect(await page.getByText(summary).count()).toBe(1);
    await screenshot(page, 'devices-bulk-reboot');
    await context.close();
  });

  it('at the foot of the page the scroll-to-top button covers none of the table’s controls', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    // Short enough that the page scrolls past the 300 px where the button shows (product §4).
    await page.setViewportSize({ width: 1280, height: 220 });
    await page.goto('/management/devices');
    await expect.poll(() => rows(page).count(), WAIT).toBe(ACME_FLEET.length + BETA_FLEET.length);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(300);
    await page.getByRole('button', { name: 'Scroll to top' }).waitFor();
    const pageSize = page.getByRole('combobox', { name: 'Rows per page' });
    const box = (await pageSize.boundingBox())!;
    // What a click at the control's far right would reach: the control itself.
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('select')?.getAttribute('aria-label') ?? null,
      { x: box.x + box.width - 4, y: box.y + box.height / 2 },
    );
    expect(hit).toBe('Rows per page');
    await context.close();
  });

  it('adds a device, and devices from a CSV file with a result per row', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/management/devices');
    await expect.poll(() => rows(page).count(), WAIT).toBe(4);
    await page.getByTestId('add-device-menu').click();
    await page.getByRole('menuitem', { name: 'Add device', exact: true }).click();
    await page.getByLabel('Serial number').fill('5500000001');
    // product §5 masks: the MAC field formats and upper-cases what is typed.
    const mac = page.getByLabel('MAC address');
    await mac.pressSequentially('001e42550001');
    await expect.poll(() => mac.inputValue()).toBe('00:1E:42:55:00:01');
    await screenshot(page, 'devices-add-mac-mask');
    await page.getByLabel('Name').fill('Depot gateway');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => rowOf(page, '5500000001').count(), WAIT).toBe(1);

    const file = path.join(tmpdir(), `fleetgate-import-${Date.now()}.csv`);
    writeFileSync(
      file,
      'serial,mac,name\n5500000002,00:1E:42:55:00:02,Yard one\n5500000001,00:1E:42:55:00:09,Twin\n',
    );
    await page.getByTestId('add-device-menu').click();
    await page.getByRole('menuitem', { name: 'Add device from file' }).click();
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('import-result').count(), WAIT).toBe(2);
    expect(await page.locator('[data-testid="import-result"][data-success="true"]').count()).toBe(1);
    expect(await page.locator('[data-testid="import-result"][data-success="false"]').count()).toBe(1);
    await expect.poll(() => rowOf(page, '5500000002').count(), WAIT).toBe(1);
    await context.close();
  });

  it('shows a guest the devices without any action, and never shows another tenant its devices', async () => {
    const guest = await signedInPage(browser, server.url, USERS.acmeGuest);
    await guest.page.goto('/management/devices');
    await expect.poll(() => rows(guest.page).count(), WAIT).toBe(ACME_FLEET.length);
    expect(await guest.page.getByTestId('add-device-menu').count()).toBe(0);
    expect(await guest.page.getByTestId('select-row').count()).toBe(0);
    await rowOf(guest.page, ACME_FLEET[0]!.serial).getByTestId('device-link').click();
    await guest.page.getByTestId('device-header').waitFor();
    expect(await guest.page.getByTestId('device-actions').count()).toBe(0);
    await guest.context.close();

    const other = await signedInPage(browser, server.url, USERS.betaAdmin);
    await other.page.goto('/management/devices');
    await expect.poll(() => rows(other.page).count(), WAIT).toBe(BETA_FLEET.length);
    expect(await rowOf(other.page, ACME_FLEET[0]!.serial).count()).toBe(0);
    const acmeId = ids.get(ACME_FLEET[0]!.serial)!;
    expect((await pageApi(other.page, 'GET', `/api/devices/${acmeId}`)).status).toBe(404);
    await other.page.goto(`/devices/${acmeId}`);
    await expect
      .poll(() => other.page.getByTestId('device-error').textContent(), WAIT)
      .toBe('Device not found');
    await other.context.close();
  });
});
