import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
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

const badgeCount = (page: Page) => page.getByTestId('notifications-badge').getAttribute('data-count');

/** The id of a fixture user, looked up by the super admin. */
async function userId(admin: Page, email: string): Promise<number> {
  const { status, body } = await pageApi<{ data: { id: number; email: string }[] }>(
    admin,
    'GET',
    `/api/users?q=${encodeURIComponent(email)}&search-fields=email&fields=id,email`,
  );
  expect(status).toBe(200);
  const found = body.data.find((u) => u.email === email);
  if (!found) throw new Error(`no user ${email}`);
  return found.id;
}

describe('notifications bell and page (product §2 Header widget 1, §4 Notification and Socket)', () => {
  it('a message sent by the super admin arrives live, is marked seen on close and is listed on the page', async () => {
    const user = await signedInPage(browser, server.url, USERS.acmeClient);
    const admin = await signedInPage(browser, server.url);
    try {
      const { page } = user;
      await page.getByTestId('notifications-bell').waitFor();
      await expect.poll(() => badgeCount(page)).toBe('0');

      await page.getByTestId('notifications-bell').click();
      await page.getByTestId('notifications-empty').waitFor();
      expect(await page.getByTestId('notifications-empty').textContent()).toBe('No notifications');
      await page.getByTestId('notifications-bell').click();
      await page.getByTestId('notifications-list').waitFor({ state: 'hidden' });

      // Send only once the server confirmed the user's channel, so that the push is what we see.
      await page.locator('[data-testid="notifications-bell"][data-live="true"]').waitFor();
      const summary = `Planned maintenance tonight ${Date.now()}`;
      const id = await userId(admin.page, USERS.acmeClient.email);
      const sent = await pageApi<{ data: { recipients: number } }>(admin.page, 'POST', '/api/notifications', {
        user_id: id,
        summary,
      });
      expect(sent.status).toBe(200);
      expect(sent.body.data.recipients).toBe(1);

      // Live over the socket: no reload, the list is closed, the badge counts it.
      await expect.poll(() => badgeCount(page), { timeout: 10_000 }).toBe('1');
      await page.getByTestId('notifications-bell').click();
      const item = page.getByTestId('notification-item').filter({ hasText: summary });
      await item.waitFor();
      expect(await item.getAttribute('data-unseen')).toBe('true');
      // The drop-down fades in: take the picture once it is fully shown.
      const list = page.getByTestId('notifications-list');
      await expect.poll(() => list.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      await screenshot(page, 'notifications-bell');

      // Closing by an outside click marks it seen; the reloaded list shows no badge.
      await page.mouse.click(700, 600);
      await page.getByTestId('notifications-list').waitFor({ state: 'hidden' });
      await expect.poll(() => badgeCount(page)).toBe('0');

      await page.getByTestId('notifications-bell').click();
      await page.getByTestId('notifications-show-all').click();
      await page.waitForURL((url) => url.pathname === '/notifications');
      const row = page.getByTestId('notification-row').filter({ hasText: summary });
      await row.waitFor();
      await expect.poll(() => row.getAttribute('data-unseen')).toBeNull();
      await expect.poll(() => row.getByTestId('notification-state').textContent()).toMatch(/^Seen \d{4}-/);
      await screenshot(page, 'notifications-page');

      // A second one pushed while on the page shows there too, unseen.
      const second = `Second message ${Date.now()}`;
      await pageApi(admin.page, 'POST', '/api/notifications', { user_id: id, summary: second });
      const secondRow = page.getByTestId('notification-row').filter({ hasText: second });
      await secondRow.waitFor({ timeout: 10_000 });
      expect(await secondRow.getAttribute('data-unseen')).toBe('true');
      await expect.poll(() => badgeCount(page)).toBe('1');
    } finally {
      await user.context.close();
      await admin.context.close();
    }
  });

  it('another user of the company does not receive a message sent to one user', async () => {
    const other = await signedInPage(browser, server.url, USERS.acmeAdmin);
    try {
      await other.page.getByTestId('notifications-bell').waitFor();
      await other.page.getByTestId('notifications-bell').click();
      await other.page.getByTestId('notifications-empty').waitFor();
      await expect.poll(() => badgeCount(other.page)).toBe('0');
    } finally {
      await other.context.close();
    }
  });
});
