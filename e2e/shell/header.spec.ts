import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_VERSION, LANGUAGES } from '@fleetgate/shared/constants';
import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { REPO_ROOT, type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

dayjs.extend(utc);
dayjs.extend(timezone);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const roleOf = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)!;
const nbWidget = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'apps/web/src/i18n/locales/nb/account-widget.json'), 'utf8'),
) as Record<string, string>;

async function openWidget(page: Page) {
  await page.getByTestId('account-widget').click();
  await page.getByTestId('account-menu').waitFor();
}

/** Marks the current document; the mark is gone once the page has reloaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => Reflect.set(window, '__fgBeforeReload', true));
}
async function waitForReload(page: Page) {
  await page.waitForFunction(() => !Reflect.has(window, '__fgBeforeReload'));
  await page.getByTestId('account-widget').waitFor();
}

/**
 * Keeps the text of every toast shown from now on in session storage: a toast that
 * precedes a reload by 300 ms (product §9) may be gone before a poll sees it.
 */
async function recordToasts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role="alert"]')) {
        const text = alert.textContent ?? '';
        if (text && !seen.includes(text)) {
          seen.push(text);
          sessionStorage.setItem('fg-e2e-toasts', JSON.stringify(seen));
        }
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}
const toastsSeen = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('fg-e2e-toasts') ?? '[]') as string[]);

const colorScheme = (page: Page) =>
  page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
const darkCookie = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'dark_mode')?.value ?? null;

async function chooseDarkMode(page: Page, label: 'Auto' | 'Enable' | 'Disable') {
  await openWidget(page);
  await page.getByTestId('menu-dark-mode').hover();
  await page.getByRole('menuitem', { name: label, exact: true }).click();
}

describe('account widget (product §2 Header widgets 3, §6 Gating)', () => {
  it('shows e-mail, company link and role title; the company link opens company.info', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    const me = await pageApi<{ data: { company_id: number } }>(page, 'GET', '/api/user');
    const companyId = me.body.data.company_id;
    await openWidget(page);
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(USERS.acmeAdmin.email);
    const company = page.getByTestId('account-company');
    await expect.poll(() => company.textContent()).toBe(`#${companyId} Acme`);
    expect(await company.getAttribute('href')).toBe(`/companies/${companyId}`);
    await expect.poll(() => page.getByTestId('account-role').textContent()).toBe(roleOf('admin').title);
    await company.click();
    // company.info redirects to its devices tab (product §2).
    await page.waitForURL((url) => url.pathname.startsWith(`/companies/${companyId}/`));
    await context.close();
  });

  it('the role opens the User permissions table of every permission, marking those the role holds', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    await openWidget(page);
    await page.getByTestId('account-role').click();
    const dialog = page.getByRole('dialog', { name: 'User permissions' });
    await dialog.waitFor();
    const rows = dialog.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(PERMISSIONS.length);
    const held = PERMISSIONS.filter((p) => roleOf('admin').permissions.includes(p));
    await expect.poll(() => dialog.locator('tbody tr[data-granted]').count()).toBe(held.length);
    expect(await dialog.locator('tr[data-permission="super_admin"]').getAttribute('data-granted')).toBeNull();
    expect(await dialog.locator('tr[data-permission="view_devices"]').getAttribute('data-granted')).toBe(
      'true',
    );
    await context.close();
  });

  it('dark mode is kept in a cookie and applied as a page attribute across reloads', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await expect.poll(() => colorScheme(page)).toBe('light');
    expect(await darkCookie(page)).toBeNull();
    await openWidget(page);
    await screenshot(page, 'account-widget-light');
    await page.keyboard.press('Escape');

    await chooseDarkMode(page, 'Enable');
    await expect.poll(() => colorScheme(page)).toBe('dark');
    expect(await darkCookie(page)).toBe('on');
    await page.reload();
    await page.getByTestId('account-widget').waitFor();
    await expect.poll(() => colorScheme(page)).toBe('dark');
    await openWidget(page);
    await screenshot(page, 'account-widget-dark');
    await page.keyboard.press('Escape');

    await chooseDarkMode(page, 'Disable');
    await expect.poll(() => colorScheme(page)).toBe('light');
    expect(await darkCookie(page)).toBe('off');

    // Auto removes the cookie and follows the operating system (product §4).
    await page.emulateMedia({ colorScheme: 'dark' });
    await chooseDarkMode(page, 'Auto');
    await expect.poll(() => darkCookie(page)).toBeNull();
    await expect.poll(() => colorScheme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => colorScheme(page)).toBe('light');
    await context.close();
  });

  it('the system timezone is chosen with live clocks, saved with a reload, and reset to the browser zone', async () => {
    const { context, page } = await signedInPage(browser, server.url, undefined, {
      timezoneId: 'Asia/Tokyo',
    });
    const openTimezone = async () => {
      await openWidget(page);
      await page.getByRole('menuitem', { name: 'System timezone' }).click();
      await page.getByRole('dialog', { name: 'System timezone' }).waitFor();
    };
    const select = page.getByRole('combobox', { name: 'Timezone' });
    await openTimezone();
    // Nothing saved: the browser's zone.
    await expect.poll(() => select.inputValue()).toBe('Asia/Tokyo');

    await select.click();
    await select.fill('New_York');
    await page.getByRole('option', { name: 'America/New_York' }).click();
    await expect
      .poll(() => page.getByTestId('clock-selected').getAttribute('data-zone'))
      .toBe('America/New_York');
    // Both clocks show the same instant: the selected one is the UTC one moved into New York.
    await expect
      .poll(async () => {
        const [shown, inUtc] = await page
          .getByTestId('timezone-clocks')
          .evaluate((node) =>
            ['clock-selected', 'clock-utc'].map(
              (id) => node.querySelector(`[data-testid="${id}"]`)?.textContent ?? '',
            ),
          );
        return shown === dayjs.utc(inUtc).tz('America/New_York').format('YYYY-MM-DD HH:mm:ss');
      })
      .toBe(true);
    await screenshot(page, 'timezone-dialog');

    await markDocument(page);
    await recordToasts(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForReload(page);
    expect(await toastsSeen(page)).toContain('Timezone updated successfully');
    await openTimezone();
    await expect.poll(() => select.inputValue()).toBe('America/New_York');
    const stored = await pageApi<{ data: { key: string; value: unknown }[] }>(page, 'GET', '/api/storage');
    expect(stored.body.data.find((r) => r.key === 'timezone')?.value).toBe('America/New_York');

    await markDocument(page);
    await recordToasts(page);
    await page.getByRole('button', { name: 'Reset system timezone' }).click();
    await waitForReload(page);
    expect(await toastsSeen(page)).toContain('The default timezone is used');
    await openTimezone();
    await expect.poll(() => select.inputValue()).toBe('Asia/Tokyo');
    await context.close();
  });

  it('choosing a language reloads the console in that language after about a second', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWidget(page);
    await markDocument(page);
    const chosenAt = Date.now();
    await page.getByTestId('menu-languages').hover();
    await page.getByRole('menuitem', { name: LANGUAGES.find((l) => l.code === 'nb')!.name }).click();
    await waitForReload(page);
    // product §9: the reload waits 1 s.
    expect(Date.now() - chosenAt).toBeGreaterThanOrEqual(900);
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('nb');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('nb');
    await openWidget(page);
    await page.getByRole('menuitem', { name: nbWidget['menu.timezone'] }).waitFor();
    await context.close();
  });

  it('the changelog entry shows the app version and opens the release notes', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWidget(page);
    const entry = page.getByRole('menuitem', { name: /Changelog/ });
    await expect.poll(() => entry.textContent()).toContain(APP_VERSION);
    await entry.click();
    await page.waitForURL('**/changelog');
    await page.getByRole('heading', { name: APP_VERSION }).waitFor();
    await expect
      .poll(() => page.getByTestId('changelog-version').textContent())
      .toBe(`Version ${APP_VERSION}`);
    await screenshot(page, 'changelog');
    await context.close();
  });

  it("offers 'Activate code' only to holders of activate_credit_transfer_codes", async () => {
    expect(roleOf('super_admin').permissions).toContain('activate_credit_transfer_codes');
    expect(roleOf(USERS.acmeGuest.role).permissions).not.toContain('activate_credit_transfer_codes');

    const admin = await signedInPage(browser, server.url);
    await openWidget(admin.page);
    await admin.page.getByRole('menuitem', { name: 'Activate code' }).click();
    await admin.page.waitForURL('**/redeem-code');
    await admin.context.close();

    const guest = await signedInPage(browser, server.url, USERS.acmeGuest);
    await openWidget(guest.page);
    await guest.page.getByRole('menuitem', { name: /Changelog/ }).waitFor();
    expect(await guest.page.getByRole('menuitem', { name: 'Activate code' }).count()).toBe(0);
    // Without view_companies the company is plain text.
    expect(await guest.page.getByTestId('account-company').getAttribute('href')).toBeNull();
    await guest.context.close();
  });
});
