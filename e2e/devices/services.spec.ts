import { attemptText } from '@fleetgate/shared/devices/status';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { ADMIN, type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from './support';

/** Waits long enough for a loaded machine (two e2e files run at once). */
const WAIT = { timeout: 10_000, interval: 100 };
/** The simulated agent retries every 3 s; the tab reads the connection log every 10 s. */
const RECONNECT = { timeout: 30_000, interval: 250 };

/**
 * Device services in Chromium (product §2 device.services, 'manage services'; §8 code 15): a
 * device on its trial, its service ended (the device goes offline and the gateway refuses it
 * with code 15 while the simulated agent keeps retrying), then a credit of its company
 * activated in the dialog and the device back online on its own; at 1440 px and 390 px, one
 * device each so that both start on their trial.
 */

const FLEET = 120;
const WIDTHS = [1440, 390] as const;
const DEVICES = fleetDevices(FLEET, WIDTHS.length);
const NAMES = ['Quay router', 'Dock router'] as const;
const CODE_15 = attemptText(15);

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
const ids: number[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  const acme = await companyId(page, 'Acme');
  const registered = await registerDevices(
    page,
    acme,
    DEVICES.map((device, i) => ({ ...device, name: NAMES[i]! })),
  );
  for (const device of DEVICES) ids.push(registered.get(device.serial)!);
  // Three paid credits for Acme (product §3 newPool: price and pro-forma for the paid types).
  const pool = await pageApi(page, 'POST', '/api/credits', {
    credit_type_id: 2,
    credit_count: 3,
    company_id: acme,
    credit_price: 1,
    pro_form_nr: 'PF-1',
  });
  expect(pool.status).toBe(200);
  await context.close();
  sim = new Simulator({ port: await brokerPort(server), fleet: FLEET, count: DEVICES.length, company: acme });
  sim.start();
}, 60_000);
afterAll(async () => {
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

const headerStatus = (page: Page) =>
  page.getByTestId('page-frame').getByTestId('device-status').first().textContent();
const refused = (page: Page) => page.locator('[data-testid="connection-attempts-row"][data-code="15"]');
/** Nothing of the page sticks out past the viewport's right edge (tables scroll in their own box). */
const pageWidth = (page: Page) =>
  page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));

describe('device services (product §2 device.services, §8 code 15)', () => {
  WIDTHS.forEach((width, index) => {
    it(`ends a trial, sees the device refused with code 15, activates a credit and sees it back at ${width} px`, async () => {
      const id = ids[index]!;
      const name = NAMES[index]!;
      const { context, page } = await signedInPage(browser, server.url, undefined, {
        viewport: { width, height: 900 },
      });
      await page.goto(`/devices/${id}/services`);
      await expect.poll(() => headerStatus(page), { timeout: 30_000 }).toBe('Online');

      // The trial: on, until a date in the user's zone, paid for by nobody.
      const service = page.getByTestId('device-service');
      await expect.poll(() => page.getByTestId('service-status').textContent(), WAIT).toBe('Active');
      expect(await page.getByTestId('service-paid-by').textContent()).toBe('Trial');
      expect(await page.getByTestId('service-data-packs').textContent()).toBe('-');
      expect(await page.getByTestId('service-until').textContent()).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
      );
      expect(await page.getByTestId('service-history-empty').textContent()).toBe('No activations yet');
      await service.scrollIntoViewIfNeeded();
      await screenshot(page, `device-services-trial-${width}`);

      // End service, after a confirmation: the device is cut off at once.
      await page.getByTestId('service-end').click();
      const confirm = page.getByRole('dialog', { name: 'End service' });
      await confirm.getByTestId('confirm-message').waitFor();
      expect(await confirm.getByTestId('confirm-message').textContent()).toContain(
        `End the service of ${name}?`,
      );
      await confirm.getByRole('button', { name: 'End service' }).click();
      await page.getByText('Service ended successfully').first().waitFor();
      await expect.poll(() => service.getAttribute('data-status'), WAIT).toBe('ended');
      expect(await page.getByTestId('service-status').textContent()).toBe('Ended');
      await expect.poll(() => headerStatus(page), { timeout: 15_000 }).toBe('Offline');
      // The agent keeps trying; the gateway refuses it with product §8's code 15 text.
      await expect.poll(() => refused(page).count(), RECONNECT).toBeGreaterThan(0);
      expect(await refused(page).first().textContent()).toContain(CODE_15);
      await page.getByTestId('service-resume').waitFor();
      await refused(page).first().scrollIntoViewIfNeeded();
      await screenshot(page, `device-services-ended-${width}`);

      // 'Manage services': from the tab at 1440 px, from the device's actions menu on a phone.
      if (width === 1440) await page.getByTestId('service-activate').click();
      else {
        await page.getByTestId('device-actions').click();
        await page.getByRole('menuitem', { name: 'Manage services' }).click();
      }
      const dialog = page.getByRole('dialog', { name: `Manage services: ${name}` });
      const type = dialog.getByRole('combobox', { name: 'Resource type' });
      await type.waitFor();
      // Beside the form: what Acme has left of what may be activated.
      const left = dialog.getByTestId('services-left');
      await expect
        .poll(() => left.getByTestId('services-left-row').allTextContents(), WAIT)
        .toEqual([`Paid credits${3 - index}`]);

      // No free credits: the server's refusal shows under the type.
      await type.click();
      await page.getByRole('option', { name: 'Free credits', exact: true }).click();
      await dialog.getByRole('button', { name: 'Activate' }).click();
      await dialog.getByText('Not enough free credits: 0 left').waitFor();

      await type.click();
      await page.getByRole('option', { name: 'Paid credits', exact: true }).click();
      await screenshot(page, `device-services-dialog-${width}`);
      await dialog.getByRole('button', { name: 'Activate' }).click();
      await page.getByText('Service activated successfully').first().waitFor();
      await dialog.waitFor({ state: 'detached' });

      await expect.poll(() => service.getAttribute('data-status'), WAIT).toBe('active');
      expect(await page.getByTestId('service-paid-by').textContent()).toBe('Paid credits');
      // The simulated agent comes back by itself on its next try.
      await expect.poll(() => headerStatus(page), RECONNECT).toBe('Online');
      const activation = page.locator('[data-testid="service-history-row"][data-action="activate"]');
      await expect.poll(() => activation.count(), WAIT).toBe(1);
      expect(await activation.textContent()).toContain('Paid credits');
      expect(await activation.textContent()).toContain(ADMIN.email);
      await activation.scrollIntoViewIfNeeded();
      await screenshot(page, `device-services-active-${width}`);

      const size = await pageWidth(page);
      expect(size.page).toBeLessThanOrEqual(size.viewport);
      await context.close();
    }, 120_000);
  });

  it('turns auto-renew on and off from the tab', async () => {
    const id = ids[0]!;
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto(`/devices/${id}/services`);
    const toggle = page.getByRole('switch', { name: 'Auto-renew' });
    // Mantine draws the track over a transparent input: the click lands on the input itself.
    await toggle.waitFor({ state: 'attached' });
    const before = await toggle.isChecked();
    await toggle.click({ force: true });
    await page.getByText('Service updated successfully').first().waitFor();
    await expect.poll(() => toggle.isChecked(), WAIT).toBe(!before);
    const stored = await pageApi<{ data: { auto_renew: boolean } }>(
      page,
      'GET',
      `/api/devices/${id}/services`,
    );
    expect(stored.body.data.auto_renew).toBe(!before);
    await context.close();
  });
});
