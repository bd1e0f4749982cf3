import { deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import { pathOf, routeByName, tabsOf } from '@fleetgate/shared/routes';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { brokerPort, companyId, fleetDevices, hostileDevice, registerDevices, Simulator } from './support';

/** Waits long enough for a loaded machine (two e2e files run at once). */
const WAIT = { timeout: 10_000, interval: 100 };

/**
 * The walkthrough in Chromium ('Done when'): a device comes online live,
 * its charts move, a command runs while it is online, the simulator stops (Offline live),
 * commands queue and one is cancelled, the simulator returns and the queued reboot runs
 * pending → done; the map shows the track; device-reported markup is inert text.
 */

// The first fleet whose first unit has GPS and a modem, so that every chart and the map have data.
const FLEET = Array.from({ length: 20 }, (_, i) => 73 + i).find((fleet) => {
  const d = fleetDevices(fleet, 1)[0]!;
  const caps = deriveCapabilities({ model: d.model, firmware: d.firmware });
  return caps.has_gps && caps.has_mobile;
})!;
const DEVICE = fleetDevices(FLEET, 1)[0]!;
const HOSTILE = fleetDevices(FLEET + 1, 1)[0]!;
// Within the protocol's 64 characters for a hostname (docs/device-protocol.md §4.1).
const MARKUP = '<img src=x onerror="__pwned=1"><script>__pwned=2</script>';

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let deviceId: number;
let hostileId: number;
let acmeId: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  const acme = await companyId(page, 'Acme');
  acmeId = acme;
  deviceId = (await registerDevices(page, acme, [{ ...DEVICE, name: 'Harbour gateway' }])).get(
    DEVICE.serial,
  )!;
  hostileId = (await registerDevices(page, acme, [{ ...HOSTILE, name: 'Hostile unit' }])).get(
    HOSTILE.serial,
  )!;
  await context.close();
  sim = new Simulator({ port: await brokerPort(server), fleet: FLEET, count: 1, company: acme });
});
afterAll(async () => {
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

const headerStatus = (page: Page) =>
  page.getByTestId('page-frame').getByTestId('device-status').first().textContent();
const item = (page: Page) => page.getByTestId('action-status-item');

async function openAction(page: Page, menuItem: string) {
  await page.getByTestId('device-actions').click();
  await page.getByRole('menuitem', { name: menuItem }).click();
}

describe('device page', () => {
  it('follows the device live: online, moving charts, a command, offline, a queued reboot that runs on return', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/devices/${deviceId}`);
    await page.waitForURL(`**/devices/${deviceId}/activity`);
    await expect.poll(() => headerStatus(page), WAIT).toBe('Pending');

    sim.start();
    await expect.poll(() => headerStatus(page), { timeout: 20_000 }).toBe('Online');

    // Metrics: a new point appears on the chart without a reload.
    await page.getByRole('tab', { name: 'Metrics' }).click();
    await page.waitForURL(`**/devices/${deviceId}/metrics/dynamic`);
    const chart = page.getByTestId('chart-signal');
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const before = Number(await chart.getAttribute('data-points'));
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 15_000 })
      .toBeGreaterThan(before);
    await page.locator('.uplot canvas').first().waitFor();
    await screenshot(page, 'device-metrics');

    // A CLI command while online: its outcome (output, or the device's error) shows in 'Action status'.
    await openAction(page, 'CLI command');
    await page.getByRole('textbox', { name: 'Command' }).fill('uptime');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect
      .poll(() => item(page).first().getAttribute('data-status'), { timeout: 20_000 })
      .toMatch(/^(done|failed)$/);
    const outcome = await item(page).first().getAttribute('data-status');
    if (outcome === 'done') {
      await expect.poll(() => page.getByTestId('action-status-output').textContent(), WAIT).toContain('up');
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    // The simulator stops: the device goes Offline live.
    await sim.stop();
    await expect.poll(() => headerStatus(page), { timeout: 15_000 }).toBe('Offline');

    // Commands queue for the offline device; a pending one can be cancelled.
    await openAction(page, 'Export backup');
    await page.getByTestId('device-action-confirm').click();
    await expect.poll(() => item(page).getAttribute('data-status'), WAIT).toBe('pending');
    await item(page).getByRole('button', { name: 'Cancel command' }).click();
    await expect.poll(() => item(page).getAttribute('data-status'), WAIT).toBe('cancelled');
    await page.keyboard.press('Escape');

    await openAction(page, 'Reboot');
    await page.getByTestId('device-action-confirm').click();
    await expect.poll(() => item(page).getAttribute('data-status'), WAIT).toBe('pending');
    await screenshot(page, 'device-reboot-pending');

    // The simulator returns: the queued reboot runs to done.
    sim.start();
    await expect.poll(() => item(page).getAttribute('data-status'), { timeout: 25_000 }).toBe('done');
    expect(await item(page).getByTestId('action-status-output').textContent()).toBe('Rebooting');
    await screenshot(page, 'device-reboot-done');
    await page.keyboard.press('Escape');

    // The activity tab has the whole history.
    await page.getByRole('tab', { name: 'Activity' }).click();
    const history = page.getByTestId('command-row');
    await expect
      .poll(
        () =>
          history.evaluateAll((rows) =>
            rows.map((r) => `${r.getAttribute('data-action')}:${r.getAttribute('data-status')}`),
          ),
        WAIT,
      )
      .toEqual(expect.arrayContaining(['reboot:done', 'export_backup:cancelled']));
    await context.close();
  }, 90_000);

  it('shows the location track on the map, and the ports of the model', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/devices/${deviceId}/location`);
    await page.locator('.device-marker').waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => Number(await page.getByTestId('device-map').getAttribute('data-track-points')), {
        timeout: 15_000,
      })
      .toBeGreaterThan(1);
    expect(await page.locator('path.device-track').getAttribute('d')).toMatch(/^M/);
    expect(await page.getByTestId('location-row').count()).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('current-position').textContent(), WAIT)
      .toMatch(/-?\d+\.\d{6}, -?\d+\.\d{6}/);
    await screenshot(page, 'device-location');

    await page.getByRole('tab', { name: 'Ports' }).click();
    await page.waitForURL(`**/devices/${deviceId}/ports`);
    const ports = deriveCapabilities({ model: DEVICE.model, firmware: DEVICE.firmware }).port_count;
    await expect.poll(() => page.getByTestId('port').count(), WAIT).toBe(ports);
    await expect
      .poll(() => page.locator('[data-testid="port"][data-link="up"]').count(), WAIT)
      .toBeGreaterThan(0);

    // Data usage: the day's mobile data in bytes base 1024, and a bar for today.
    await page.getByRole('tab', { name: 'Data usage' }).click();
    await page.waitForURL(`**/devices/${deviceId}/data-usage`);
    await expect.poll(() => page.getByTestId('usage-24h').textContent(), WAIT).toMatch(/\d (KB|MB|GB)/);
    await expect
      .poll(async () => Number(await page.getByTestId('chart-daily-usage').getAttribute('data-points')), WAIT)
      .toBeGreaterThan(0);
    await screenshot(page, 'device-data-usage');
    await context.close();
  });

  it("sets the device password: human field messages, product §8's toast, and 'Action status' as the one window", async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/devices/${deviceId}/activity`);
    await page.getByTestId('device-header').waitFor();

    await openAction(page, 'Set device password');
    const dialog = page.getByRole('dialog', { name: 'Set device password: Harbour gateway' });
    const password = dialog.getByLabel(/^Password/);
    // product §5: the schema's own words, never zod's ('Too small: expected string to have >=8 characters').
    await password.fill('short');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await dialog.getByText('Password must be at least 8 characters').waitFor();
    expect(await page.getByText(/Too small|expected string/).count()).toBe(0);

    await password.fill('a-long-enough-password');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Device password updated successfully').waitFor();
    expect(await page.getByText('Saved successfully').count()).toBe(0);
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('window-title').allTextContents(), WAIT)
      .toEqual(['Action status']);
    await screenshot(page, 'device-password-set');
    await page.keyboard.press('Escape');

    // The CLI window stays open on purpose, says so, and shows the run below the command.
    await openAction(page, 'CLI command');
    const cli = page.getByRole('dialog', { name: 'CLI command: Harbour gateway' });
    await cli.getByRole('button', { name: 'Run' }).click();
    await cli.getByText('Command is required').waitFor();
    expect(await cli.getByTestId('form-note').textContent()).toBe(
      'The output appears below; the window stays open for the next command.',
    );
    await cli.getByRole('textbox', { name: 'Command' }).fill('uptime');
    await cli.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Command sent successfully').waitFor();
    await cli.getByTestId('action-status-item').waitFor();
    // The run is named by the device's name, as every other action's is.
    await cli.getByTestId('action-status-item').getByText('Harbour gateway · CLI command').waitFor();
    await cli.getByText('1 of 1 devices accepted the action').waitFor();
    expect(await page.getByTestId('window').count()).toBe(1);
    await screenshot(page, 'device-cli-stays-open');
    await context.close();
  });

  it('every device tab keeps the device header; a tab without its screen says so inside the frame', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    // Every tab of the device page (product §2 device.info), the metrics kinds and one dashboard.
    const tabs = [
      ...tabsOf('device.info'),
      ...tabsOf('device.metrics'),
      routeByName('device.dashboard'),
    ].filter((tab) => !tab.redirect);
    const frame = page.getByTestId('page-frame');
    for (const tab of tabs) {
      await page.goto(pathOf(tab.name, { id: deviceId, dashboard_id: 1 }));
      await frame.getByTestId('device-header').waitFor();
      expect(await frame.getAttribute('data-route'), tab.name).toBe(tab.name);
      // The device's name as the title (not 'Device'), its status and its actions.
      expect(await frame.getByTestId('device-name').textContent(), tab.name).toBe('Harbour gateway');
      expect(await frame.getByTestId('device-status').first().isVisible(), tab.name).toBe(true);
      expect(await page.getByTestId('device-actions').isVisible(), tab.name).toBe(true);
      // Breadcrumbs: Devices / Harbour gateway / the tab.
      const crumb = page.getByTestId('breadcrumb-device.info');
      expect(await crumb.textContent(), tab.name).toBe('Harbour gateway');
      expect(await crumb.getAttribute('href'), tab.name).toBe(`/devices/${deviceId}`);
      // Under the header the tab's screen, or a plain panel saying it is not there yet: never nothing.
      const unavailable = frame.getByTestId('screen-unavailable');
      if (await unavailable.count()) {
        expect(await unavailable.textContent(), tab.name).toBe('This tab is not available yet');
        const header = (await frame.getByTestId('device-header').boundingBox())!;
        expect((await unavailable.boundingBox())!.y, tab.name).toBeGreaterThan(header.y + header.height);
        if (tab.name === 'device.access') await screenshot(page, 'device-tab-unavailable');
      } else {
        expect(
          await frame.getByTestId('device-header').evaluate((el) => el.nextElementSibling !== null),
          tab.name,
        ).toBe(true);
      }
    }
    await context.close();
  }, 60_000);

  it('breadcrumbs name the company on its page, and the device page links to it by name', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/companies/${acmeId}/users/invitations`);
    const crumb = page.getByTestId('breadcrumb-company.info');
    await expect.poll(() => crumb.textContent(), WAIT).toBe('Acme');
    expect(await crumb.getAttribute('href')).toBe(`/companies/${acmeId}`);
    expect(await page.getByTestId('breadcrumb-users.companies').textContent()).toBe('Companies');

    await page.goto(`/devices/${deviceId}/activity`);
    const company = page.getByTestId('device-company');
    await expect.poll(() => company.textContent(), WAIT).toBe('Acme');
    expect(await company.getAttribute('href')).toBe(`/companies/${acmeId}`);
    await context.close();
  });

  it('renders markup a device reports as plain text', async () => {
    await hostileDevice(await brokerPort(server), HOSTILE, MARKUP);
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/devices/${hostileId}/activity`);
    await expect
      .poll(() => page.getByTestId('device-hostname').textContent(), { timeout: 15_000 })
      .toBe(MARKUP);
    await expect
      .poll(() => page.locator('[data-testid="event-row"][data-type="device.test.markup"]').textContent(), {
        timeout: 15_000,
      })
      .toContain(MARKUP);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(
      await page.locator('[data-testid="page-body"] img[src="x"], [data-testid="page-body"] script').count(),
    ).toBe(0);
    await context.close();
  });
});
