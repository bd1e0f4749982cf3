import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { createNotice, noticeRow } from './notice-helpers';

let server: RunningServer;
let browser: Browser;
let admin: { context: BrowserContext; page: Page };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  admin = await signedInPage(browser, server.url);
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
  await server?.dispose();
});

const important = (page: Page) => page.getByTestId('notices-important').getByText('Important');

describe('global notices (product §2 header widget 2, §3, §4 Global notice alert, §5 rich text)', () => {
  it('the admin creates a notice in a window, enables it and disables it', async () => {
    const { page } = admin;
    await page.goto('/notices');
    await page.getByTestId('notices-table').waitFor();
    const tag = Math.random().toString(36).slice(2, 8);
    await page.getByRole('button', { name: 'New notice' }).click();
    const form = page.getByTestId('form-notice');
    await form.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Update' }).click();
    await form.getByLabel('Message').fill(`Version 5.14 brings <strong>faster</strong> maps ${tag}`);
    await screenshot(page, 'notices-create-window');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Notice created successfully').waitFor();
    await form.waitFor({ state: 'detached' });
    const row = page.getByTestId('notice-row').filter({ hasText: `Version 5.14 brings faster maps ${tag}` });
    await expect.poll(() => row.getByTestId('notice-status').textContent()).toBe('Disabled');

    await row.getByRole('button', { name: 'Enable now' }).click();
    await expect.poll(() => row.getByTestId('notice-status').textContent()).toBe('Enabled');
    const id = Number(await row.getAttribute('data-notice-id'));
    const seen = await pageApi<{ data: { id: number }[] }>(page, 'GET', '/api/notices');
    expect(seen.body.data.map((n) => n.id)).toContain(id);
    await screenshot(page, 'notices-admin');

    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.getByTestId('notice-status').textContent()).toBe('Disabled');
    const after = await pageApi<{ data: { id: number }[] }>(page, 'GET', '/api/notices');
    expect(after.body.data.map((n) => n.id)).not.toContain(id);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-message').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('a user sees a new notice marked Important until they look at it', async () => {
    // Unique per attempt: a retried test must not find the first attempt's notices.
    const tag = Math.random().toString(36).slice(2, 8);
    const notice = await createNotice(admin.page, {
      type: 'maintenance',
      message: `Planned <b>maintenance</b> tonight ${tag} <script>window.hacked=1</script>`,
      enabled_at: new Date().toISOString(),
    });
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeClient);
    await page.goto('/management/devices');
    await important(page).waitFor();
    await screenshot(page, 'notices-important');

    await page.getByTestId('notices-indicator').click();
    const item = page.getByTestId('notice-item').filter({ hasText: `Planned maintenance tonight ${tag}` });
    await item.waitFor();
    expect(await item.getByTestId('notice-type').textContent()).toBe('Maintenance');
    expect(await item.locator('b').textContent()).toBe('maintenance');
    // Hostile markup reads as text and never runs.
    expect(await item.getByTestId('notice-message').textContent()).toContain(
      '<script>window.hacked=1</script>',
    );
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    expect(await item.getByTestId('notice-time').textContent()).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
    await screenshot(page, 'notices-list');
    await important(page).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByTestId('notices-list').waitFor({ state: 'hidden' });

    // The last-seen time is kept per user: a reload does not bring the marker back.
    await page.reload();
    await page.getByTestId('notices-indicator').waitFor();
    await expect.poll(() => page.getByTestId('notices-important').getAttribute('data-important')).toBeNull();

    // A newer notice marks it again after the next route change, newest first in the list.
    await createNotice(admin.page, {
      type: 'info',
      message: `Second notice ${tag}`,
      enabled_at: new Date().toISOString(),
    });
    await page.locator('[data-testid="navigation"] a[href="/tags"]').click();
    await page.waitForURL((url) => url.pathname === '/tags');
    await important(page).waitFor();
    await page.getByTestId('notices-indicator').click();
    await expect
      .poll(() => page.getByTestId('notice-message').first().textContent())
      .toBe(`Second notice ${tag}`);

    // Disabled notices leave the list on the next route change.
    await pageApi(admin.page, 'POST', `/api/admin/notices/${notice.id}/disable`, {});
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="navigation"] a[href="/management/devices"]').first().click();
    await page.waitForURL((url) => url.pathname === '/management/devices');
    await page.getByTestId('notices-indicator').click();
    await page
      .getByTestId('notice-item')
      .filter({ hasText: `Second notice ${tag}` })
      .waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('notice-item')
          .filter({ hasText: `Planned maintenance tonight ${tag}` })
          .count(),
      )
      .toBe(0);
    await context.close();
  });

  it('the notices administration is not reachable without admin_view_notice', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    await page.goto('/notices');
    await page.waitForURL((url) => url.pathname !== '/notices');
    expect(await page.getByTestId('notices-table').count()).toBe(0);
    await page.goto('/forms/notice');
    await page.waitForURL((url) => !url.pathname.startsWith('/forms'));
    const listed = await pageApi(page, 'GET', '/api/admin/notices');
    expect(listed.status).toBe(403);
    // Everyone signed in still reads the enabled notices.
    expect((await pageApi(page, 'GET', '/api/notices')).status).toBe(200);
    await context.close();
  });

  it('opens a notice as JSON from the administration', async () => {
    const notice = await createNotice(admin.page, { type: 'info', message: 'Seen as JSON' });
    await admin.page.goto('/notices');
    await noticeRow(admin.page, notice.id).getByRole('button', { name: 'View JSON' }).click();
    await expect
      .poll(
        async () => JSON.parse((await admin.page.getByTestId('json-viewer').textContent()) ?? '{}').message,
      )
      .toBe('Seen as JSON');
  });
});
