import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { createNotice, noticeRow } from './notice-helpers';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  ({ context, page } = await signedInPage(browser, server.url));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.dispose();
});

const form = () => page.getByTestId('form-notice');

describe('full-page form route /forms/:form_name/:id? (product §2, §4 Form submission, §8)', () => {
  it('/forms/notice creates a notice and goes back one page', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    await page.goto('/notices');
    await page.getByTestId('notices-table').waitFor();
    await page.getByRole('link', { name: 'New notice on a full page' }).click();
    await page.waitForURL((url) => url.pathname === '/forms/notice');
    await page.getByRole('heading', { name: 'New notice' }).waitFor();
    await form().getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Maintenance' }).click();
    await form().getByLabel('Message').fill(`  Network <b>maintenance</b> on Sunday ${tag}  `);
    await screenshot(page, 'forms-page-new');
    await form().getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === '/notices');
    await page.getByText('Notice created successfully').waitFor();
    const row = page.getByTestId('notice-row').filter({ hasText: `Network maintenance on Sunday ${tag}` });
    await row.waitFor();
    // Trimmed before sending, and the markup kept as markup.
    expect(await row.locator('b').textContent()).toBe('maintenance');
    expect(await row.getByTestId('notice-type').textContent()).toBe('Maintenance');
  });

  it('/forms/notice/:id loads the record, shows the server field error under its field, then saves', async () => {
    const notice = await createNotice(page, { type: 'warning', message: 'Edit me on a page' });
    await page.goto('/notices');
    await noticeRow(page, notice.id).getByRole('link', { name: 'Edit on a full page' }).click();
    await page.waitForURL((url) => url.pathname === `/forms/notice/${notice.id}`);
    const message = form().getByLabel('Message');
    await expect.poll(() => message.inputValue()).toBe('Edit me on a page');
    expect(await form().getByRole('combobox', { name: 'Type' }).inputValue()).toBe('Warning');

    // The shared schema lets this through; the server refuses it on the message field.
    await message.fill('<b> </b>');
    await form().getByRole('button', { name: 'Save' }).click();
    await page.getByText('Message has no visible text').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/forms/notice/${notice.id}`);
    await screenshot(page, 'forms-server-error');
    // product §5: the error clears as soon as the value changes.
    await message.press('End');
    await message.type('x');
    await page.getByText('Message has no visible text').waitFor({ state: 'detached' });

    await message.fill('Edited on a page');
    await form().getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === '/notices');
    await page.getByText('Notice updated successfully').waitFor();
    await expect.poll(() => noticeRow(page, notice.id).textContent()).toContain('Edited on a page');
  });

  it('checks the shared rules before sending', async () => {
    await page.goto('/forms/notice');
    let posted = 0;
    const count = (request: { url(): string; method(): string }) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/notices')) posted += 1;
    };
    page.on('request', count);
    await form().getByRole('button', { name: 'Save' }).click();
    await form().getByText('Message is required').waitFor();
    page.off('request', count);
    expect(posted).toBe(0);
  });

  it('a form name no form answers to goes where any unknown path goes (product §2): the first permitted page', async () => {
    // A product §3 form whose feature does not exist yet, and a name nobody knows.
    for (const name of ['uploadMulticonfigDoc', 'no-such-form']) {
      await page.goto(`/forms/${name}`);
      await page.waitForURL((url) => url.pathname === '/management/devices');
      await page.getByTestId('page-frame').waitFor();
      expect(await page.getByText(/Unknown form/).count(), name).toBe(0);
    }
    // A path outside the route table lands on the same page.
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/management/devices');
  });

  it('/forms/newUser opens the invite-user form on the full page, sends it and goes back', async () => {
    const email = `full.page.${Math.random().toString(36).slice(2, 8)}@example.test`;
    await page.goto('/users/invitations');
    await page.getByTestId('invitations-table').waitFor();
    await page.goto('/forms/newUser');
    const invite = page.getByTestId('form-newUser');
    await invite.waitFor();
    await page.getByRole('heading', { name: 'Invite user' }).waitFor();
    // A page, not a window.
    expect(await page.getByTestId('window').count()).toBe(0);
    const company = invite.getByRole('combobox', { name: 'Company' });
    await company.click();
    await company.fill('Acme');
    await page.getByRole('option', { name: /^Acme #\d+$/ }).click();
    await invite.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'End Client', exact: true }).click();
    await invite.getByLabel('E-mail').fill(email);
    await screenshot(page, 'forms-page-new-user');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.waitForURL((url) => url.pathname === '/users/invitations');
    // No SMTP here: the server's message says so, and the toast keeps it.
    await page
      .getByText(/^Invitation created\. SMTP is not configured/)
      .first()
      .waitFor();
    await page.getByTestId('invitation-email').filter({ hasText: email }).waitFor();
  });
});
