import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

describe('navigation (product §2 Navigation)', () => {
  it('opens the active group, collapses and expands groups, and marks the active entry', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/reports/periodic/week');
    const management = page.getByTestId('nav-group-devices');
    await expect.poll(() => management.getAttribute('aria-expanded')).toBe('true');
    const active = page.getByTestId('nav-items-devices').locator('[aria-current="page"]');
    await expect.poll(() => active.textContent()).toBe('Reports');
    expect(await page.getByTestId('nav-group-system').getAttribute('aria-expanded')).toBe('false');

    await management.click();
    await expect.poll(() => management.getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('nav-group-system').click();
    await page.getByTestId('nav-items-system').getByRole('link', { name: 'Mail logs' }).click();
    await page.waitForURL((url) => url.pathname === '/system/mail-logs');
    await expect
      .poll(() => page.getByTestId('nav-items-system').locator('[aria-current="page"]').textContent())
      .toBe('Mail logs');
    await context.close();
  });

  it('a route-mapped entry takes the name and route of the first permission held', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    await page.getByTestId('nav-group-devices').waitFor();
    const files = page.getByTestId('nav-items-devices').getByRole('link', { name: 'Files' });
    expect(await files.getAttribute('href')).toBe('/management/files');
    // Users: a guest holds view_users first, so the entry is Users → /users.
    const admin = page.getByTestId('nav-group-administration');
    if ((await admin.getAttribute('aria-expanded')) !== 'true') await admin.click();
    const users = page.getByTestId('nav-items-administration').getByRole('link', { name: 'Users' });
    expect(await users.getAttribute('href')).toBe('/users');
    await context.close();
  });

  it('collapses to icons, remembered as wideNav, with the wide logo fading out and the small one in', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.getByTestId('logo-wide').waitFor();
    await page.getByRole('button', { name: 'Collapse menu' }).click();
    await page.getByTestId('logo-collapsed').waitFor();
    await page.getByTestId('logo-wide').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('wideNav'))).toBe('false');
    expect(await page.getByTestId('nav-group-devices').getAttribute('aria-label')).toBe('Management');
    await screenshot(page, 'shell-collapsed');
    await page.reload();
    await page.getByTestId('logo-collapsed').waitFor();
    await page.getByRole('button', { name: 'Expand menu' }).click();
    await page.getByTestId('logo-wide').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('wideNav'))).toBe('true');
    await context.close();
  });

  it('the logo leads to the devices list', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/tags');
    await page.getByTestId('logo').click();
    await page.waitForURL((url) => url.pathname === '/management/devices');
    await context.close();
  });

  it('clicking the link of the current route reloads the page', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/tags');
    const key = () => page.locator('[data-page-key]').getAttribute('data-page-key');
    await page.locator('[data-page-key]').waitFor();
    const before = await key();
    await page.getByTestId('nav-items-devices').getByRole('link', { name: 'Tags' }).click();
    await expect.poll(key).not.toBe(before);
    expect(new URL(page.url()).pathname).toBe('/tags');
    await context.close();
  });

  it('on a phone the navigation is an overlay that locks scrolling and closes on route change or outside click', async () => {
    const { context, page } = await signedInPage(browser, server.url, undefined, {
      viewport: { width: 390, height: 800 },
    });
    // Sign-in loads '/', which then redirects to the landing route; a route change closes the
    // overlay, so the burger is pressed only once the redirect has happened.
    await page.waitForURL((url) => url.pathname === '/management/devices');
    await page.locator('[data-page-key]').waitFor();
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    await burger.click();
    await page.getByTestId('nav-overlay').waitFor();
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    await screenshot(page, 'shell-mobile-open');
    await page.getByTestId('nav-items-devices').getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL((url) => url.pathname === '/tags');
    await page.getByTestId('nav-overlay').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe('');

    await burger.click();
    await page.getByTestId('nav-overlay').waitFor();
    await page.mouse.click(370, 400);
    await page.getByTestId('nav-overlay').waitFor({ state: 'detached' });
    await context.close();
  });
});
