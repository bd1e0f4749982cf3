import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '../support/browser';
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

describe('layout (spec §2 Layout, §4, §9)', () => {
  // The automatic opening after 700 ms and its remembered closing are tested on the hook
  // (app/layout/automatic-help.test.tsx): every help-panel route's screen is still to come.
  it('a page whose screen is not built yet offers no help: help ships with its screen', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    for (const path of ['/reports/single', '/statistics/connection-manager']) {
      await page.goto(path);
      await page.getByTestId('page-frame').waitFor();
      await page.waitForTimeout(1000);
      expect(await page.getByRole('dialog', { name: /Help/ }).count(), path).toBe(0);
      expect(await page.getByRole('button', { name: 'Help', exact: true }).count(), path).toBe(0);
    }
    await context.close();
  });

  it('a help-link route opens its help on demand, with real help text', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/companies');
    await page.getByRole('button', { name: 'Help', exact: true }).click();
    const panel = page.getByRole('dialog', { name: /Help/ });
    await panel.waitFor();
    await expect.poll(async () => (await panel.textContent())?.length ?? 0).toBeGreaterThan(200);
    expect(await panel.textContent()).not.toContain('There is no help text for this page.');
    await context.close();
  });

  it('the scroll-to-top button shows past 300 px and brings the page back up', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.getByTestId('page-frame').waitFor();
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
    });
    const button = page.getByRole('button', { name: 'Scroll to top' });
    await page.evaluate(() => window.scrollTo(0, 200));
    await page.waitForTimeout(300);
    expect(await button.count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 900));
    await button.waitFor();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it('re-keys the page when the route parameter id changes', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/devices/1/activity');
    const key = page.locator('[data-page-key]');
    await expect.poll(() => key.getAttribute('data-page-key')).toMatch(/^1\|/);
    await page.evaluate(() => window.history.pushState({}, '', '/devices/2/activity'));
    await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
    await expect.poll(() => key.getAttribute('data-page-key')).toMatch(/^2\|/);
    await context.close();
  });

  it('mobile mode (?platform=mobile) shows the page without navigation and header', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/tags?platform=mobile');
    await page.getByTestId('page-frame').waitFor();
    expect(await page.getByTestId('navigation').count()).toBe(0);
    expect(await page.getByTestId('header-widgets').count()).toBe(0);
    await context.close();
  });

  it('a lost connection shows its toast, and navigating offline shows the offline page', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.getByTestId('page-frame').waitFor();
    await context.setOffline(true);
    await page.getByText('The network connection has been lost.').waitFor();
    await page.getByTestId('nav-items-devices').getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL((url) => url.pathname === '/offline.html');
    await page.getByTestId('offline-page').getByRole('heading', { name: 'You are offline' }).waitFor();
    await context.close();
  });
});
