import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { createNotice } from './notice-helpers';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('layout (product §2 Layout, §4, §9)', () => {
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

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the header with an active notice (product §2 Header widgets 2)', () => {
  for (const width of [1440, 390]) {
    it(`the 'Important' marker sits inside the header, clear of the icon and the avatar, at ${width} px`, async () => {
      const admin = await signedInPage(browser, server.url);
      await createNotice(admin.page, {
        type: 'maintenance',
        message: `Planned maintenance tonight (${width} px)`,
        enabled_at: new Date().toISOString(),
      });
      await admin.context.close();
      // A user who never opened the list: the marker is up.
      const { context, page } = await signedInPage(browser, server.url, USERS.acmeClient, {
        viewport: { width, height: 800 },
      });
      const marker = page.getByTestId('notices-important').getByText('Important');
      await marker.waitFor();
      const box = async (locator: ReturnType<Page['locator']>) => (await locator.first().boundingBox())!;
      const header = await box(page.locator('header'));
      const mark = await box(marker);
      await page.getByTestId('page-frame').waitFor();
      await screenshot(page, `header-notice-${width}`);
      // Whole, within the header's height and the viewport's width.
      expect(mark.y).toBeGreaterThanOrEqual(header.y);
      expect(mark.y + mark.height).toBeLessThanOrEqual(header.y + header.height);
      expect(mark.x).toBeGreaterThanOrEqual(0);
      expect(mark.x + mark.width).toBeLessThanOrEqual(width);
      // Covering neither the notices icon nor the avatar next to it.
      expect(overlaps(mark, await box(page.getByTestId('notices-indicator')))).toBe(false);
      expect(overlaps(mark, await box(page.getByTestId('account-widget')))).toBe(false);
      // Nothing in the header is drawn over the marker: it is the topmost thing where it is.
      const onTop = await marker.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && (el === hit || el.contains(hit) || hit.contains(el));
      });
      expect(onTop).toBe(true);
      await context.close();
    });
  }
});

describe('route error boundaries (every route has one)', () => {
  it('the mobile dashboard, a standalone route without its screen yet, says so instead of a blank page', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/device/1/dashboard/1');
    const panel = page.getByTestId('screen-unavailable');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('This page is not available yet');
    expect(await panel.getByRole('link', { name: 'Go to the console' }).getAttribute('href')).toBe('/');
    // Standalone: no navigation, no header.
    expect(await page.getByTestId('navigation').count()).toBe(0);
    await screenshot(page, 'mobile-dashboard');
    await context.close();
  });

  it('a screen that throws while rendering shows the boundary’s message in the page; navigation and header stay', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    // The changelog screen's code, replaced by a screen that throws when it renders.
    await page.route('**/ChangelogPage-*.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: "export function ChangelogPage() { throw new Error('render failure (e2e)'); }",
      }),
    );
    await page.goto('/changelog');
    const boundary = page.getByTestId('route-error');
    await boundary.waitFor();
    expect(await boundary.textContent()).toContain('Something went wrong');
    expect(await boundary.textContent()).toContain('This page could not be shown.');
    expect(await boundary.textContent()).not.toContain('render failure');
    await page.getByTestId('navigation').waitFor();
    await page.getByTestId('header-widgets').waitFor();
    await screenshot(page, 'route-error-in-page');

    // Another screen still works: the boundary belongs to the route, not to the console.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/tags');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.locator('[data-testid="page-frame"][data-route="tags.main"]').waitFor();
    expect(await page.getByTestId('route-error').count()).toBe(0);
    await context.close();
  });
});
