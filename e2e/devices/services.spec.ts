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
 * device each so that both start on their trial. Then 'move device resources' (a data pack,
 * then a credit's days) and 'manage services' on the table's selection, all or none.
 */

const FLEET = 120;
const WIDTHS = [1440, 390] as const;
const DEVICES = fleetDevices(FLEET, WIDTHS.length);
const NAMES = ['Quay router', 'Dock router'] as const;
const CODE_15 = attemptText(15);

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let acme: number;
const ids: number[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  acme = await companyId(page, 'Acme');
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

type ServiceJson = {
  active: boolean;
  service_until: string | null;
  service_type_name: string | null;
  data_packs: { credit_type_name: string; left: number }[];
};
const serviceOf = async (page: Page, id: number) =>
  (await pageApi<{ data: ServiceJson }>(page, 'GET', `/api/devices/${id}/services`)).body.data;
/** Units of a paid type for Acme (product §3 newPool: price and pro-forma for the paid types). */
async function addPool(page: Page, typeId: number, count: number) {
  const pool = await pageApi(page, 'POST', '/api/credits', {
    credit_type_id: typeId,
    credit_count: count,
    company_id: acme,
    credit_price: 1,
    pro_form_nr: `PF-${typeId}`,
  });
  expect(pool.status).toBe(200);
}
const DATA_PACK = 'Paid connection data pack (1 GB)';
const PACK_3Y = 'Paid management pack (3 years)';
const DAY_MS = 86_400_000;
/** A time as the tab shows it (YYYY-MM-DD HH:mm:ss), read as one zone's wall clock. */
const wallClock = (text: string | null) => Date.parse(`${text!.replace(' ', 'T')}Z`);
const label = (index: number) => `${NAMES[index]} (${DEVICES[index]!.serial})`;

describe("'move device resources' and bulk 'manage services' (product §2 dialogs)", () => {
  it('activates a data pack on one device, moves it to another with the dialog and sees it there', async () => {
    const [quay, dock] = [ids[0]!, ids[1]!];
    const { context, page } = await signedInPage(browser, server.url, undefined, {
      viewport: { width: 1440, height: 900 },
    });
    await addPool(page, 10, 1);
    await page.goto(`/devices/${quay}/services`);
    await expect.poll(() => page.getByTestId('service-status').textContent(), WAIT).toBe('Active');

    // 'Manage services': a data pack is a kind of its own; it leaves the service (and auto-renew) alone.
    await page.getByTestId('service-activate').click();
    const dialog = page.getByRole('dialog', { name: `Manage services: ${NAMES[0]}` });
    await dialog.getByRole('radio', { name: 'Data for the device: a connection data pack' }).click();
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Auto-renew' }).count(), WAIT).toBe(0);
    await dialog.getByRole('combobox', { name: 'Resource type' }).click();
    await page.getByRole('option', { name: DATA_PACK, exact: true }).click();
    await screenshot(page, 'device-services-data-pack-1440');
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('Service activated successfully').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('service-data-packs').textContent(), WAIT)
      .toBe(`${DATA_PACK} × 1`);
    expect(await page.getByTestId('service-paid-by').textContent()).toBe('Paid credits');

    // 'Move device resources' from the tab: the source preset, the target searched on the server.
    await page.getByTestId('service-move').click();
    const move = page.getByRole('dialog', { name: `Move device resources: ${NAMES[0]}` });
    const source = move.getByRole('combobox', { name: 'Source device' });
    await expect.poll(() => source.inputValue(), WAIT).toBe(label(0));
    await move.getByRole('combobox', { name: 'Target device' }).fill('Dock');
    await page.getByRole('option', { name: label(1), exact: true }).click();
    await move.getByRole('radio', { name: DATA_PACK }).click();
    expect(await move.getByTestId('move-explain').textContent()).toContain(
      `One ${DATA_PACK} moves from the source device to the target device`,
    );
    await screenshot(page, 'device-move-pack-1440');
    await move.getByRole('button', { name: 'Move' }).click();
    await page.getByText('Device resources moved successfully').first().waitFor();
    await move.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('service-data-packs').textContent(), WAIT).toBe('-');
    const out = page.locator('[data-testid="service-history-row"][data-action="move_pack"]');
    await expect.poll(() => out.count(), WAIT).toBe(1);
    expect(await out.textContent()).toContain(`Data pack moved to device #${dock}`);

    // On the target's services tab: the pack is there, and where it came from.
    await out.getByRole('link', { name: `device #${dock}` }).click();
    await page.waitForURL(`**/devices/${dock}/services`);
    await expect
      .poll(() => page.getByTestId('service-data-packs').textContent(), WAIT)
      .toBe(`${DATA_PACK} × 1`);
    const into = page.locator('[data-testid="service-history-row"][data-action="move_pack"]');
    await expect.poll(() => into.count(), WAIT).toBe(1);
    expect(await into.textContent()).toContain(`Data pack moved from device #${quay}`);
    await into.scrollIntoViewIfNeeded();
    await screenshot(page, 'device-services-pack-moved-1440');
    await context.close();
  }, 120_000);

  it("moves a credit's remaining days: the source ends now and the target's date grows (390 px)", async () => {
    const [quay, dock] = [ids[0]!, ids[1]!];
    const { context, page } = await signedInPage(browser, server.url, undefined, {
      viewport: { width: 390, height: 900 },
    });
    // A credit on the source first (Acme's last paid credit): its days are what moves.
    const activated = await pageApi(page, 'POST', `/api/devices/${quay}/services`, {
      credit_type_name: 'Paid credits',
    });
    expect(activated.status).toBe(200);
    const before = await serviceOf(page, dock);
    expect(before.active).toBe(true);
    await page.goto(`/devices/${dock}/services`);
    await expect.poll(() => page.getByTestId('service-until').textContent(), WAIT).not.toBe('-');
    const untilBefore = await page.getByTestId('service-until').textContent();

    await page.goto(`/devices/${quay}/services`);
    await expect.poll(() => page.getByTestId('service-status').textContent(), WAIT).toBe('Active');
    // From the device's actions menu.
    await page.getByTestId('device-actions').click();
    await page.getByRole('menuitem', { name: 'Move device resources' }).click();
    const move = page.getByRole('dialog', { name: `Move device resources: ${NAMES[0]}` });
    await move.getByText(/whole days left/).waitFor();
    await screenshot(page, 'device-move-open-390');
    const days = Number(
      /(\d+) whole days left/.exec((await move.getByTestId('move-resources').textContent())!)![1],
    );
    expect(days).toBeGreaterThan(30);
    await move.getByRole('combobox', { name: 'Target device' }).fill('Dock');
    await page.getByRole('option', { name: label(1), exact: true }).click();
    await move.getByRole('radio', { name: 'Remaining days of the credit' }).click();
    const explain = await move.getByTestId('move-explain').textContent();
    expect(explain).toContain('The service on the source device ends now');
    expect(explain).toContain(`extended by ${days} days`);
    await screenshot(page, 'device-move-days-390');
    expect((await pageWidth(page)).page).toBeLessThanOrEqual(390);
    await move.getByRole('button', { name: 'Move' }).click();
    await page.getByText('Device resources moved successfully').first().waitFor();
    await move.waitFor({ state: 'detached' });

    // The source: ended now, cut off (the agent is refused from here on).
    const service = page.getByTestId('device-service');
    await expect.poll(() => service.getAttribute('data-status'), WAIT).toBe('ended');
    expect(await page.getByTestId('service-status').textContent()).toBe('Ended');
    await expect.poll(() => headerStatus(page), { timeout: 15_000 }).toBe('Offline');
    const out = page.locator('[data-testid="service-history-row"][data-action="move_days"]');
    await expect.poll(() => out.count(), WAIT).toBe(1);
    expect(await out.textContent()).toContain(`${days} days moved to device #${dock}`);
    await service.scrollIntoViewIfNeeded();
    await screenshot(page, 'device-services-days-moved-390');

    // The target: its date grew by the days moved.
    await page.goto(`/devices/${dock}/services`);
    await expect.poll(() => page.getByTestId('service-until').textContent(), WAIT).not.toBe(untilBefore);
    const grown = wallClock(await page.getByTestId('service-until').textContent()) - wallClock(untilBefore);
    // One hour either way: a change of summer time in between.
    expect(Math.abs(grown - days * DAY_MS)).toBeLessThanOrEqual(3_600_000);
    const after = await serviceOf(page, dock);
    const added = Date.parse(after.service_until!) - Date.parse(before.service_until!);
    expect(Math.abs(added - days * DAY_MS)).toBeLessThanOrEqual(3_600_000);
    const into = page.locator('[data-testid="service-history-row"][data-action="move_days"]');
    await expect.poll(() => into.count(), WAIT).toBe(1);
    expect(await into.textContent()).toContain(`${days} days moved from device #${quay}`);
    await into.scrollIntoViewIfNeeded();
    await screenshot(page, 'device-services-days-received-390');
    const size = await pageWidth(page);
    expect(size.page).toBeLessThanOrEqual(size.viewport);
    await context.close();
  }, 120_000);

  it('activates a management pack on two devices from the table, all or none', async () => {
    const { context, page } = await signedInPage(browser, server.url, undefined, {
      viewport: { width: 1440, height: 900 },
    });
    // One pack for two devices: the first try must change nothing.
    await addPool(page, 4, 1);
    await page.goto('/management/devices');
    const rows = page.getByTestId('device-row');
    await expect.poll(() => rows.count(), WAIT).toBe(DEVICES.length);
    for (const device of DEVICES)
      await page
        .locator(`[data-testid="device-row"][data-serial="${device.serial}"]`)
        .getByTestId('select-row')
        .check();
    await expect.poll(() => page.getByTestId('bulk-count').textContent(), WAIT).toBe('2 devices selected');
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Manage services' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage services' });
    expect(await dialog.getByTestId('bulk-services-count').textContent()).toBe('Activate on 2 devices:');
    await dialog.getByRole('combobox', { name: 'Resource type' }).click();
    await page.getByRole('option', { name: PACK_3Y, exact: true }).click();
    await dialog.getByRole('button', { name: 'Activate' }).click();
    // The refusal names what the company has for how many devices; nothing changed.
    await dialog.getByText('Not enough paid management pack (3 years): 1 left for 2 devices').waitFor();
    for (const id of ids) expect((await serviceOf(page, id)).service_type_name).not.toBe(PACK_3Y);
    const balances = await pageApi<{ data: { per_type: { credit_type: number; left: number }[] } }>(
      page,
      'GET',
      `/api/companies/${acme}/resources`,
    );
    expect(balances.body.data.per_type.find((entry) => entry.credit_type === 4)?.left).toBe(1);
    await screenshot(page, 'devices-bulk-services-refused-1440');

    // A second pack: now both devices get one.
    await addPool(page, 4, 1);
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('Service activated successfully').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    for (const id of ids) {
      const service = await serviceOf(page, id);
      expect(service.service_type_name).toBe(PACK_3Y);
      expect(service.active).toBe(true);
    }

    // The same dialog on a phone.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Manage services' }).click();
    await dialog.getByTestId('bulk-services-count').waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await screenshot(page, 'devices-bulk-services-390');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The source of the days is served again, by the pack.
    await page.goto(`/devices/${ids[0]}/services`);
    await expect.poll(() => page.getByTestId('service-paid-by').textContent(), WAIT).toBe(PACK_3Y);
    expect(await page.getByTestId('service-status').textContent()).toBe('Active');
    await context.close();
  }, 120_000);
});
