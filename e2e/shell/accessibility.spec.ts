import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Simulator } from '../devices/support';
import { type AxeViolation, axeViolations, describeViolations } from '../support/axe';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import {
  ACCOUNT_PAGES,
  BUILT,
  type FleetIds,
  settled,
  setUpDemoFleet,
  walkRoutes,
} from '../support/routes-walk';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Every built screen, the account settings, the sign-in page and open windows meet the
 * WCAG 2.1 A and AA rules that axe-core checks, in the light and in the dark colour scheme
 * (product §4 dark mode): no serious or critical violation. One server, one browser and one
 * signed-in page for the whole walk, so the file stays quick.
 */

const SCHEMES = [
  { name: 'light', cookie: 'off' },
  { name: 'dark', cookie: 'on' },
] as const;
type Scheme = (typeof SCHEMES)[number];

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let ids: FleetIds;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  ({ ids, sim } = await setUpDemoFleet(browser, server));
  ({ context, page } = await signedInPage(browser, server.url, undefined, {
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'reduce',
  }));
}, 120_000);
afterAll(async () => {
  await context?.close();
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

/** The dark-mode cookie the console reads before its first paint (product §4). */
async function useScheme(target: BrowserContext, scheme: Scheme): Promise<void> {
  await target.addCookies([{ name: 'dark_mode', value: scheme.cookie, url: server.url }]);
}

/** Fails a place's check with its violations listed; returns the message, or null when clean. */
async function check(where: string): Promise<string | null> {
  const violations: AxeViolation[] = await axeViolations(page);
  return violations.length ? describeViolations(violations, where) : null;
}

/** Screens whose pictures are kept, to look at in each scheme. */
const LOOKED_AT = new Set(['management.devices', 'device.activity', 'users.table']);

describe('accessibility: WCAG 2.1 A and AA (axe-core), light and dark', () => {
  for (const scheme of SCHEMES) {
    it(`every built screen has no serious or critical violation in ${scheme.name} mode`, async () => {
      await useScheme(context, scheme);
      await page.goto('/management/devices');
      await page.getByTestId('page-frame').waitFor();
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme.name);
      // Screens not built yet all show the same 'not available yet' panel: it is checked once.
      let placeholderChecked = false;
      const { failures, drawn } = await walkRoutes(page, ids, `in ${scheme.name} mode`, async (stop) => {
        if (
          !BUILT.includes(stop.name) &&
          (await page.getByTestId('screen-unavailable').first().isVisible())
        ) {
          if (placeholderChecked) return null;
          placeholderChecked = true;
        }
        if (LOOKED_AT.has(stop.name)) await screenshot(page, `a11y-${scheme.name}-${stop.name}`);
        return check(`${stop.route.name} (${stop.landed}) in ${scheme.name} mode`);
      });
      expect(failures.length, failures.join('\n\n')).toBe(0);
      expect(BUILT.filter((name) => !drawn.has(name))).toEqual([]);
    }, 240_000);

    it(`the account settings pages have no serious or critical violation in ${scheme.name} mode`, async () => {
      await useScheme(context, scheme);
      const failures: string[] = [];
      for (const section of ACCOUNT_PAGES) {
        await page.goto(`/account/settings/${section}`);
        await settled(page);
        const problem = await check(`/account/settings/${section} in ${scheme.name} mode`);
        if (problem) failures.push(problem);
      }
      await screenshot(page, `a11y-${scheme.name}-account-${ACCOUNT_PAGES.at(-1)}`);
      expect(failures.length, failures.join('\n\n')).toBe(0);
    });

    it(`open windows (Add device, a form) have no serious or critical violation in ${scheme.name} mode`, async () => {
      await useScheme(context, scheme);
      const failures: string[] = [];
      await page.goto('/management/devices');
      await page.getByTestId('add-device-menu').click();
      await page.getByRole('menuitem', { name: 'Add device', exact: true }).click();
      await page.getByTestId('window').waitFor();
      await page.getByLabel('Serial number').waitFor();
      const addDevice = await check(`the Add device window in ${scheme.name} mode`);
      if (addDevice) failures.push(addDevice);
      await screenshot(page, `a11y-${scheme.name}-add-device`);

      await page.goto('/notices');
      await page.getByTestId('notices-table').waitFor();
      await page.getByRole('button', { name: 'New notice' }).click();
      await page.getByTestId('form-notice').waitFor();
      const form = await check(`the New notice form window in ${scheme.name} mode`);
      if (form) failures.push(form);
      expect(failures.length, failures.join('\n\n')).toBe(0);
    });

    it(`the sign-in page, signed out, has no serious or critical violation in ${scheme.name} mode`, async () => {
      const out = await newPage(browser, server.url, { reducedMotion: 'reduce' });
      await useScheme(out.context, scheme);
      await out.page.goto('/account/login');
      await out.page.getByLabel('Email').waitFor();
      const violations = await axeViolations(out.page);
      await screenshot(out.page, `a11y-${scheme.name}-login`);
      await out.context.close();
      expect(violations.length, describeViolations(violations, `sign-in in ${scheme.name} mode`)).toBe(0);
    });
  }

  it('a window keeps the focus inside while open and gives it back to its opener on Escape', async () => {
    await page.goto('/notices');
    await page.getByTestId('notices-table').waitFor();
    const opener = page.getByRole('button', { name: 'New notice' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const win = page.getByTestId('window');
    await page.getByTestId('form-notice').waitFor();
    const inWindow = () =>
      win.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== document.body);
    await expect.poll(inWindow).toBe(true);
    // More presses of Tab, and of Shift+Tab, than the window has stops: the focus never leaves it.
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await inWindow()).toBe(true);
    }
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inWindow()).toBe(true);
    }
    // Escape from a field that is not a select (a select's own list takes the first Escape).
    await page.getByTestId('form-notice').getByLabel('Message').focus();
    await page.keyboard.press('Escape');
    await win.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('a window opened from a menu item gives the focus back to the menu’s button', async () => {
    await page.goto(`/devices/${ids.device}`);
    const menu = page.getByTestId('device-actions');
    await menu.focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Reboot' });
    await item.focus();
    await page.keyboard.press('Enter');
    const win = page.getByTestId('window');
    await win.waitFor();
    await page.keyboard.press('Escape');
    await win.waitFor({ state: 'detached' });
    await expect.poll(() => menu.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('the landing’s menus and filter lists, whose code comes with their first use, work by keyboard from a fresh load', async () => {
    await page.goto('/management/devices');
    await page.getByTestId('device-row').first().waitFor();
    const focusedTestId = () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid);

    // A menu: Enter opens it once its code is there, Escape closes it and the focus is back on its button.
    for (const [button, item] of [
      ['add-device-menu', 'Add device from file'],
      ['account-widget', 'Changelog'],
    ] as const) {
      await page.getByTestId(button).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: new RegExp(item) }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      await expect.poll(focusedTestId).toBe(button);
    }

    // A filter drawn as a look-alike first: focused, it becomes the real list with the focus kept.
    await page.getByTestId('filter-status').focus();
    await expect.poll(() => page.getByTestId('filter-status').getAttribute('aria-haspopup')).toBe('listbox');
    expect(await focusedTestId()).toBe('filter-status');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Online' }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const field = page.locator('.mantine-MultiSelect-root', { has: page.getByTestId('filter-status') });
    await expect.poll(() => field.locator('.mantine-Pill-root').allTextContents()).toEqual(['Online']);
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).not.toBeNull();
  });
});
