import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seriesOfModel } from '@fleetgate/shared/devices/catalogue';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from '../devices/support';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Brands per host name (product §1) in Chromium: the super admin makes a brand for
 * `localhost` on its page, with a live preview and an uploaded logo; the same server then
 * shows two brands, on `127.0.0.1` and on `localhost`: the sign-in page, the title, the
 * primary colour, a hidden route, and a branded model in the devices table and on the
 * device page, with the simulator playing the device.
 */

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });

const FLEET = fleetDevices(91, 1);
const DEVICE = FLEET[0]!;
const SERIES = seriesOfModel(DEVICE.model)!;
const BRAND_COLOUR = '#c2255c';

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let deviceId: number;
/** The same server under its other host name. */
let localhost: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  localhost = server.url.replace('127.0.0.1', 'localhost');
  const { context, page } = await signedInPage(browser, server.url);
  const acme = await companyId(page, 'Acme');
  const ids = await registerDevices(page, acme, [{ ...DEVICE, name: 'Branded router' }]);
  deviceId = ids.get(DEVICE.serial)!;
  await context.close();
  sim = new Simulator({ port: await brokerPort(server), fleet: 91, count: 1, company: acme });
  sim.start();
});
afterAll(async () => {
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

/** The colour of the devices table's filled 'Add device' button: the primary colour. */
const primaryButton = (page: Page) =>
  page.getByTestId('add-device-menu').evaluate((el) => getComputedStyle(el).backgroundColor);

const rgbOf = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
};

describe('brands per host name (product §1)', () => {
  it('the super admin makes a brand for localhost on the brands page, previewed as it is typed', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/system/brands');
    await page.getByTestId('brand-row').first().waitFor();
    expect(await page.getByTestId('brand-row').count()).toBe(1);
    await page.getByTestId('brand-add').click();
    await page.waitForURL(/\/system\/brands\/new$/);

    // A host with a port is refused in the console's words, under the field.
    await page.getByTestId('brand-host').fill('localhost:3000');
    await page.getByTestId('brand-app_name').fill('Acme Connect');
    await page.getByTestId('brand-save').click();
    await page.getByText('Enter a host name such as rms.example.com, without a scheme or port').waitFor();

    await page.getByTestId('brand-host').fill('localhost');
    await page.getByTestId('brand-full_app_name').fill('Acme Connect Fleet Manager');
    await page.getByTestId('brand-title_text').fill('Acme Connect RMS');
    await page.getByTestId('brand-main_color').fill(BRAND_COLOUR);
    await page.getByRole('button', { name: 'Add model' }).click();
    const model = page.getByTestId('brand-models-row').first();
    await model.getByPlaceholder('Original model').fill(DEVICE.model);
    await model.getByPlaceholder('Branded model').fill('Acme Edge 1');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add series' }).click();
    const series = page.getByTestId('brand-series-row').first();
    await series.getByPlaceholder('Original series').click();
    await page.getByRole('option', { name: SERIES.toUpperCase(), exact: true }).click();
    await series.getByPlaceholder('Branded series').fill('Acme Switches');
    await page.getByTestId('brand-disabled_routes').click();
    await page.getByTestId('brand-disabled_routes').fill('Tags');
    await page.getByRole('option', { name: 'Tags (/tags)' }).click();
    await page.keyboard.press('Escape');

    // The preview follows the form: names, the branded model, and the colour of both schemes.
    const preview = page.getByTestId('brand-preview-light');
    await eventually(() => preview.getByTestId('brand-preview-app-name').textContent()).toBe('Acme Connect');
    await eventually(() => preview.getByTestId('brand-preview-model').textContent()).toBe('Acme Edge 1');
    await eventually(() =>
      page.getByTestId('brand-preview-button-light').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe(rgbOf(BRAND_COLOUR));
    await screenshot(page, 'brand-editor-new');

    // Images belong to a saved brand: until then their buttons are disabled, not silent.
    expect(await page.getByTestId('brand-upload-logo').isDisabled()).toBe(true);
    expect(await page.getByTestId('brand-upload-model').first().isDisabled()).toBe(true);
    await page.getByTestId('brand-save').click();
    await page.getByText('Brand created successfully').first().waitFor();
    await page.waitForURL(/\/system\/brands\/\d+$/);

    // The logo: an SVG with a script and another site's image comes back without either.
    const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-brand-'));
    const logo = path.join(dir, 'logo.svg');
    writeFileSync(
      logo,
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">' +
        '<script>window.pwned = 1</script><image xlink:href="https://evil.test/x.png" width="10" height="10"/>' +
        `<circle cx="5" cy="5" r="4" fill="${BRAND_COLOUR}"/></svg>`,
    );
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('brand-upload-logo').click();
    await (await chooser).setFiles(logo);
    await page.getByText('Brand image uploaded successfully').first().waitFor();
    const logoPath = await page.getByTestId('brand-logo_vector').inputValue();
    expect(logoPath).toMatch(/^\/api\/brands\/\d+\/images\/logo\?v=[0-9a-f]+$/);
    const served = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { text: await response.text(), csp: response.headers.get('content-security-policy') };
    }, logoPath);
    expect(served.text).toContain('<circle');
    expect(served.text).not.toContain('script');
    expect(served.text).not.toContain('evil.test');
    expect(served.csp).toContain("default-src 'none'");

    // The branded model's picture, uploaded on its row once the brand holds the model.
    const picture = path.join(dir, 'model.svg');
    writeFileSync(
      picture,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="6" y="2" fill="${BRAND_COLOUR}"/></svg>`,
    );
    const pictureChooser = page.waitForEvent('filechooser');
    await page.getByTestId('brand-upload-model').first().click();
    await (await pictureChooser).setFiles(picture);
    const picturePath = page
      .getByTestId('brand-models-row')
      .first()
      .getByPlaceholder('Picture path (optional)');
    await eventually(() => picturePath.inputValue()).toMatch(/^\/api\/brands\/\d+\/images\/model\?model=/);
    await screenshot(page, 'brand-editor-saved');

    await page.goto('/system/brands');
    await eventually(() => page.getByTestId('brand-row').count()).toBe(2);
    await page.getByRole('link', { name: 'localhost' }).waitFor();

    // On a phone the editor and its preview stack, and nothing sticks out past the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'localhost' }).click();
    await page.getByTestId('brand-preview').waitFor();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    await screenshot(page, 'brand-editor-390');
    await context.close();
  });

  it('two host names show two brands: sign-in, title, colour, hidden route and model names', async () => {
    // Signed out: the sign-in page is branded by the host in the address.
    const plain = await browser.newContext({ baseURL: server.url });
    const plainPage = await plain.newPage();
    await plainPage.goto('/account/login');
    await plainPage.getByRole('heading', { name: 'Sign in to Fleetgate' }).waitFor();
    await plain.close();

    const branded = await browser.newContext({ baseURL: localhost });
    const brandedPage = await branded.newPage();
    await brandedPage.goto('/account/login');
    await brandedPage.getByRole('heading', { name: 'Sign in to Acme Connect' }).waitFor();
    await brandedPage.getByText('Acme Connect Fleet Manager').waitFor();
    await eventually(() => brandedPage.title()).toBe('Acme Connect RMS');
    await screenshot(brandedPage, 'brand-sign-in-localhost');
    await branded.close();

    // Signed in on localhost: the brand's colour, no Tags entry, /tags redirects, and the
    // device shows under its branded model once the simulator has said what it is.
    const { context, page } = await signedInPage(browser, localhost, USERS.acmeAdmin);
    await page.getByTestId('nav-group-devices').waitFor();
    await eventually(() => primaryButton(page)).toBe(rgbOf(BRAND_COLOUR));
    expect(await page.locator('a[href="/tags"]').count()).toBe(0);
    await page.goto('/tags');
    await page.waitForURL((url) => url.pathname === '/management/devices');
    const row = page.locator(`[data-testid="device-row"][data-serial="${DEVICE.serial}"]`);
    await eventually(() => row.locator('td').allTextContents()).toContain('Acme Edge 1');
    expect(await row.getByRole('img', { name: 'Acme Edge 1' }).getAttribute('src')).toMatch(
      /\/images\/model\?model=/,
    );
    await screenshot(page, 'brand-devices-localhost');
    await page.goto(`/devices/${deviceId}`);
    await eventually(() => page.getByTestId('device-model').textContent()).toBe('Acme Edge 1');
    expect(await page.getByTestId('device-series').textContent()).toBe('Acme Switches');
    await context.close();

    // The same user on 127.0.0.1: the default brand, the vendor's model name, Tags shown.
    const other = await signedInPage(browser, server.url, USERS.acmeAdmin);
    await other.page.locator('a[href="/tags"]').first().waitFor({ state: 'attached' });
    expect(await primaryButton(other.page)).not.toBe(rgbOf(BRAND_COLOUR));
    await other.page.goto(`/devices/${deviceId}`);
    await eventually(() => other.page.getByTestId('device-model').textContent()).toBe(DEVICE.model);
    expect(await other.page.getByTestId('device-series').textContent()).toBe(SERIES.toUpperCase());
    await other.context.close();
  });

  it('a brand may not be changed by anyone but the super admin', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    const brands = await pageApi(page, 'GET', '/api/brands');
    expect(brands.status).toBe(403);
    const created = await pageApi(page, 'POST', '/api/brands', { host: 'evil.test', app_name: 'Evil' });
    expect(created.status).toBe(403);
    await page.goto('/system/brands');
    await page.waitForURL((url) => url.pathname === '/management/devices');
    await context.close();
  });
});
