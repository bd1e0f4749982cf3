import { readFileSync } from 'node:fs';
import { GB } from '@fleetgate/shared/resources';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Resources in Chromium (product §2 administration.resources, service.add-credits, company
 * resources, the account widget's 'Move credits'; §3 newPool, movePools, newCode,
 * activateCode, buyData): the super admin adds paid credits to Acme, Acme's admin moves some
 * down to Acme North and makes a transfer code, Beta's admin redeems it, and each reads the
 * history; at 1440 px and at 390 px.
 */

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let root: { context: BrowserContext; page: Page };
let acme: { context: BrowserContext; page: Page };
const ids: Record<string, number> = {};
/** The code Acme's admin made, as its table shows it. */
let transferCode = '';

type Balances = {
  credits_left: number;
  remaining_data: number;
  per_type: { credit_type: number; left: number }[];
};
const balances = async (page: Page, companyId: number) =>
  (await pageApi<{ data: Balances }>(page, 'GET', `/api/companies/${companyId}/resources`)).body.data;
const paidCredits = (b: Balances) => b.per_type.find((t) => t.credit_type === 2)?.left ?? 0;

/**
 * The help panels a user has closed are kept in their storage (product §7 Storage): closed
 * ahead for the pages a test only passes through, so that no panel opens over them midway.
 */
async function dismissHelp(page: Page, routes: readonly string[]) {
  const saved = await pageApi(page, 'POST', '/api/storage', { key: 'help.dismissed', value: routes });
  expect(saved.status).toBe(200);
  // The console reads the storage when it starts.
  await page.reload();
}
const HELP_ROUTES = ['services.credit-history', 'services.credit-codes'] as const;

async function choose(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const rowOfCode = (page: Page, code: string) => page.locator(`[data-testid="code-row"][data-code="${code}"]`);

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  root = await signedInPage(browser, server.url, undefined, { viewport: WIDE });
  const companies = await pageApi<{ data: { id: number; name: string }[] }>(
    root.page,
    'GET',
    '/api/companies?limit=100&fields=id,name',
  );
  for (const c of companies.body.data) ids[c.name] = c.id;
  acme = await signedInPage(browser, server.url, USERS.acmeAdmin, { viewport: WIDE });
  // The super admin meets the credit history's help in the first test; the rest pass by.
  await dismissHelp(root.page, ['services.credit-codes']);
  await dismissHelp(acme.page, HELP_ROUTES);
});
afterAll(async () => {
  await acme?.context.close();
  await root?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('resources (product §2, §3, §4, §6)', () => {
  it('the super admin adds paid credits to Acme with a price and a pro-forma number', async () => {
    const { page } = root;
    await page.goto('/resources');
    await page.waitForURL('**/resources/credits');
    // services.credit-history is a help-panel route: its help opens by itself, with real text.
    const help = page.getByRole('dialog', { name: /Help/ });
    await help.waitFor();
    await eventually(() => help.textContent()).toContain('Credit report');
    await help.getByRole('button', { name: 'Close help' }).click();
    await help.waitFor({ state: 'detached' });

    await page.getByTestId('resources-add').click();
    const form = page.getByTestId('form-newPool');
    await choose(page, form, 'Resource type', 'Free credits');
    // Price and pro-forma only for the paid types (product §3 newPool).
    expect(await form.getByLabel('Credit price').count()).toBe(0);
    await choose(page, form, 'Resource type', 'Paid credits');
    await form.getByRole('textbox', { name: 'Resource count' }).fill('100');
    await choose(page, form, 'Company', `Acme #${ids.Acme}`);
    await form.getByRole('button', { name: 'Add resources' }).click();
    await form.getByText('Credit price is required').waitFor();
    await form.getByText('Pro-forma number is required').waitFor();
    await form.getByRole('textbox', { name: 'Credit price' }).fill('12.5');
    await form.getByRole('textbox', { name: 'Pro-forma number' }).fill('PF-2025-001');
    await form.getByRole('button', { name: 'Add resources' }).click();
    await page.getByText('Resources added successfully').first().waitFor();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('movement-row').filter({ hasText: 'PF-2025-001' });
    await row.waitFor();
    expect(await row.getByTestId('movement-action').textContent()).toBe('Resources added');
    expect(await row.textContent()).toContain('12.50');
    expect(paidCredits(await balances(page, ids.Acme!))).toBe(100);
    await screenshot(page, 'resources-history-1440');
  });

  it("Acme's admin moves credits down to Acme North from the account widget's 'Move credits'", async () => {
    const { page } = acme;
    await page.goto('/resources/credits');
    await page.getByTestId('account-widget').click();
    await page.getByRole('menuitem', { name: 'Move credits' }).click();
    const form = page.getByTestId('form-movePools');
    await page.getByRole('dialog', { name: 'Move credits' }).waitFor();
    // Others than the super admin name the paid types without 'Paid' (product §6).
    await choose(page, form, 'Resource type', 'Credits');
    expect(await form.getByRole('combobox', { name: 'Source company' }).inputValue()).toBe(
      `Acme #${ids.Acme}`,
    );
    await choose(page, form, 'Target company', `Acme North #${ids['Acme North']}`);
    await form.getByRole('textbox', { name: 'Amount' }).fill('30');
    await screenshot(page, 'resources-move-credits');
    await form.getByRole('button', { name: 'Move' }).click();
    await page.getByText('Resources moved successfully').first().waitFor();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('movement-row').filter({ hasText: 'Acme North' }).first();
    await eventually(() => row.getByTestId('movement-action').textContent()).toBe('Moved');
    expect(paidCredits(await balances(page, ids['Acme North']!))).toBe(30);
    expect(paidCredits(await balances(page, ids.Acme!))).toBe(70);

    // The header's resource summary reads the real answer (GET /credits/summary, /companies/{id}).
    // Its own cache keeps an answer 10 s (product §9): a fresh page asks again.
    await page.reload();
    await page.getByTestId('account-widget').click();
    const summary = page.getByTestId('resource-summary');
    await eventually(() => summary.locator('[data-credit-type="2"]').textContent()).toBe('Credits70');
    expect(await summary.getByTestId('resource-remaining-data').textContent()).toBe('5 GB');
    await screenshot(page, 'resources-widget-summary');
    await page.keyboard.press('Escape');

    // The company page's resources tab: its balances over the same history, kept to it.
    await page.goto(`/companies/${ids['Acme North']}/resources`);
    await page.waitForURL('**/resources/credits');
    await eventually(() => page.getByTestId('balance-credits').textContent()).toBe('30');
    await page.getByTestId('movement-row').first().waitFor();
    await screenshot(page, 'resources-company-tab');
  });

  it('Acme makes a transfer code and reads it from the table', async () => {
    const { page } = acme;
    await page.goto('/resources/codes');
    await page.getByTestId('code-create').click();
    const form = page.getByTestId('form-newCode');
    // Only the super admin names the company a code comes from (product §6).
    expect(await form.getByText('From company').count()).toBe(0);
    await choose(page, form, 'Resource type', 'Credits');
    await form.getByRole('textbox', { name: 'Amount' }).fill('5x');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('Amount must contain digits only').waitFor();
    await form.getByRole('textbox', { name: 'Amount' }).fill('5');
    await form.getByRole('textbox', { name: 'Comment' }).fill('For Beta');
    await form.getByRole('button', { name: 'Create code' }).click();
    await page.getByText('Code created successfully').first().waitFor();
    const shown = (await page.getByTestId('created-code-value').textContent()) ?? '';
    expect(shown).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    await page.getByTestId('created-code-copy').waitFor();
    await screenshot(page, 'resources-code-created');
    await page.getByTestId('created-code-done').click();

    const row = page.getByTestId('code-row').filter({ hasText: 'For Beta' }).first();
    await row.waitFor();
    transferCode = (await row.getByTestId('code-value').textContent()) ?? '';
    expect(transferCode).toBe(shown);
    expect(await row.getByTestId('code-status').textContent()).toBe('Not Used');
    // The code holds its resources: Acme has 5 fewer to spend.
    expect(paidCredits(await balances(page, ids.Acme!))).toBe(65);
    await screenshot(page, 'resources-codes-1440');
  });

  it("Beta's admin redeems the code at /redeem-code and sees it in its credit history", async () => {
    expect(transferCode).not.toBe('');
    const beta = await signedInPage(browser, server.url, USERS.betaAdmin, { viewport: WIDE });
    const { page } = beta;
    await dismissHelp(page, HELP_ROUTES);
    await page.goto('/redeem-code');
    await page.getByRole('textbox', { name: 'Code' }).fill(transferCode);
    await page.getByRole('button', { name: 'Activate code' }).click();
    await page.getByText('Code activated successfully').first().waitFor();
    expect(await page.getByTestId('redeemed').textContent()).toContain('Your company received 5 × Credits.');
    expect(await page.getByRole('textbox', { name: 'Code' }).inputValue()).toBe('');
    await screenshot(page, 'resources-redeemed');
    expect(paidCredits(await balances(page, ids.Beta!))).toBe(5);

    // A code works once.
    await page.getByRole('textbox', { name: 'Code' }).fill(transferCode);
    await page.getByRole('button', { name: 'Activate code' }).click();
    await eventually(() => page.getByTestId('form-activateCode').getAttribute('data-status')).toBe('error');

    await page.goto('/resources/credits');
    const row = page.getByTestId('movement-row').filter({ hasText: 'Code redeemed' }).first();
    await row.waitFor();
    // Acme is outside Beta's reach: its name never reaches Beta.
    expect(await row.textContent()).not.toContain('Acme');
    await screenshot(page, 'resources-beta-history');
    await beta.context.close();

    await acme.page.goto('/resources/codes');
    await eventually(() => rowOfCode(acme.page, transferCode).getByTestId('code-status').textContent()).toBe(
      'Used',
    );
    expect(await rowOfCode(acme.page, transferCode).getByTestId('code-cancel').count()).toBe(0);
  });

  it("the super admin's code form, on its full page, names the company the code comes from", async () => {
    const { page } = root;
    await page.goto('/forms/newCode');
    const form = page.getByTestId('form-newCode');
    await choose(page, form, 'Resource type', 'Free credits');
    await choose(page, form, 'From company', `Acme North #${ids['Acme North']}`);
    await form.getByRole('textbox', { name: 'Amount' }).fill('999');
    await form.getByRole('button', { name: 'Create code' }).click();
    // Acme North holds no free credits: the server's words show under the form.
    await eventually(() => form.getAttribute('data-status')).toBe('error');
    await choose(page, form, 'Resource type', 'Paid credits');
    await form.getByRole('textbox', { name: 'Amount' }).fill('1');
    await form.getByRole('button', { name: 'Create code' }).click();
    await page.getByTestId('created-code-value').waitFor();
    await page.getByTestId('created-code-done').click();
    // Opened by its address, the full-page form has no page to go back to: it goes to the codes.
    await page.waitForURL('**/resources/codes');
    const row = page.getByTestId('code-row').first();
    expect(await row.textContent()).toContain('Acme North');
    expect(paidCredits(await balances(page, ids['Acme North']!))).toBe(29);
  });

  it('an unused code is cancelled and its credits go back', async () => {
    const { page } = acme;
    const made = await pageApi<{ data: { code: string } }>(page, 'POST', '/api/credits/codes', {
      credit_type_name: 'Credits',
      amount: '4',
      comment: 'To cancel',
    });
    expect(made.status).toBe(200);
    expect(paidCredits(await balances(page, ids.Acme!))).toBe(61);
    await page.goto('/resources/codes');
    const row = rowOfCode(page, made.body.data.code);
    await row.getByTestId('code-cancel').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel code' }).click();
    await page.getByText('Code cancelled successfully').first().waitFor();
    await eventually(() => row.getByTestId('code-status').textContent()).toBe('Cancelled');
    expect(paidCredits(await balances(page, ids.Acme!))).toBe(65);
  });

  it("Acme buys data on its company page after 'Spend 2 credits for 4 GB?'", async () => {
    const { page } = acme;
    const before = await balances(page, ids.Acme!);
    await page.goto(`/companies/${ids.Acme}/resources/credits`);
    await page.getByTestId('balance-data').waitFor();
    await page.getByTestId('buy-data').click();
    const form = page.getByTestId('form-buyData');
    await form.getByRole('textbox', { name: 'Credits' }).fill('002');
    await form.getByRole('button', { name: 'Buy data' }).click();
    const question = page.getByTestId('confirm-message');
    await eventually(() => question.textContent()).toBe('Spend 2 credits for 4 GB?');
    await page
      .getByRole('dialog', { name: 'Buy data' })
      .filter({ has: question })
      .getByRole('button', { name: 'Buy data' })
      .click();
    await page.getByText('Data bought successfully').first().waitFor();
    const after = await balances(page, ids.Acme!);
    expect(after.remaining_data - before.remaining_data).toBe(4 * GB);
    expect(after.credits_left).toBe(before.credits_left - 2);
    const row = page.getByTestId('movement-row').filter({ hasText: 'Data bought' }).first();
    await row.waitFor();
    expect(await row.getByTestId('movement-amount').textContent()).toContain('4 GB');

    // The company's data history: what gave it data, and nothing else.
    await page.getByRole('tab', { name: 'Data history' }).last().click();
    await page.waitForURL('**/resources/data-history');
    await eventually(() =>
      page.getByTestId('movement-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))),
    ).toEqual(['buy_data', 'trial_data']);
  });

  it('the super admin downloads the credit report of a period as CSV', async () => {
    const { page } = root;
    await page.goto('/resources/credits');
    await page.getByTestId('credit-report-open').click();
    const dialog = page.getByTestId('credit-report');
    await dialog.waitFor();
    await screenshot(page, 'resources-credit-report');
    const download = page.waitForEvent('download');
    await dialog.getByTestId('credit-report-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = readFileSync((await file.path())!, 'utf8');
    expect(text).toContain('PF-2025-001');
    await dialog.waitFor({ state: 'detached' });
  });

  it("Acme's admin caps what Acme North may pass on; North's admin reads the quota and is held to it", async () => {
    const { page } = acme;
    await page.goto(`/companies/${ids['Acme North']}/resources/credits`);
    const quotas = page.getByTestId('company-quotas');
    await quotas.getByTestId('quotas-empty').waitFor();
    await quotas.getByTestId('quota-set').click();
    const form = page.getByTestId('form-setQuota');
    await choose(page, form, 'Resource type', 'Credits');
    await form.getByRole('textbox', { name: 'Quota' }).fill('5');
    await form.getByRole('button', { name: 'Save quota' }).click();
    await page.getByText('Quota saved successfully').first().waitFor();
    await eventually(() => quotas.getByTestId('quota-left').textContent()).toBe('5');
    await screenshot(page, 'resources-quotas-1440');

    const north = await signedInPage(browser, server.url, USERS.northAdmin, { viewport: WIDE });
    try {
      await dismissHelp(north.page, HELP_ROUTES);
      await north.page.goto(`/companies/${ids['Acme North']}/resources/credits`);
      const own = north.page.getByTestId('company-quotas');
      await eventually(() => own.getByTestId('quota-left').textContent()).toBe('5');
      expect(await own.getByTestId('quota-set').count()).toBe(0);

      const held = paidCredits(await balances(north.page, ids['Acme North']!));
      await north.page.goto('/resources/codes');
      await north.page.getByTestId('code-create').click();
      const code = north.page.getByTestId('form-newCode');
      await choose(north.page, code, 'Resource type', 'Credits');
      await code.getByRole('textbox', { name: 'Amount' }).fill('6');
      await code.getByRole('button', { name: 'Create code' }).click();
      await code.getByText('Your company’s quota allows passing on 5 more of this type').waitFor();
      expect(paidCredits(await balances(north.page, ids['Acme North']!))).toBe(held);
    } finally {
      await north.context.close();
    }

    // Removed, the quota no longer holds anything back.
    await page.reload();
    await quotas.getByTestId('quota-remove').click();
    await page
      .getByRole('dialog', { name: 'Remove quota' })
      .getByRole('button', { name: 'Remove quota' })
      .click();
    await quotas.getByTestId('quotas-empty').waitFor();
  });

  it("the super admin's payment control makes Beta a free company, which then sees no buy link", async () => {
    const { page } = root;
    await page.goto(`/companies/${ids.Beta}/resources/credits`);
    const panel = page.getByTestId('company-payments');
    await eventually(() => panel.getByTestId('payment-type').textContent()).toBe('Paid supply');
    await panel.getByTestId('payment-change').click();
    const form = page.getByTestId('form-companyFlags');
    await form.getByRole('radio', { name: 'Free supply' }).check();
    await form.getByRole('button', { name: /Save/ }).click();
    await page.getByText('Company flags updated successfully').first().waitFor();
    await eventually(() => panel.getByTestId('payment-type').textContent()).toBe('Free supply');
    await screenshot(page, 'resources-payment-control');
    const company = await pageApi<{ data: { payment_type: string } }>(
      page,
      'GET',
      `/api/companies/${ids.Beta}`,
    );
    expect(company.body.data.payment_type).toBe('free');
    await page.goto(`/companies/${ids.Beta}`);
    await eventually(() => page.getByTestId('company-payment-type').textContent()).toBe('Free supply');
  });

  it('at 390 px the pages stack and nothing sticks out past the screen', async () => {
    const { page } = acme;
    await page.setViewportSize(PHONE);
    for (const [path, ready, name] of [
      ['/resources/credits', 'movement-row', 'resources-history-390'],
      ['/resources/codes', 'code-row', 'resources-codes-390'],
      ['/redeem-code', 'form-activateCode', 'resources-redeem-390'],
      [`/companies/${ids.Acme}/resources/credits`, 'company-balances', 'resources-company-390'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: innerWidth,
      }));
      expect(widths.page, path).toBeLessThanOrEqual(widths.viewport);
      await screenshot(page, name);
    }
    await page.setViewportSize(WIDE);

    // The super admin's view of a subsidiary: payment control and quotas stack too.
    await root.page.setViewportSize(PHONE);
    try {
      await root.page.goto(`/companies/${ids['Acme North']}/resources/credits`);
      await root.page.getByTestId('company-payments').waitFor();
      await root.page.getByTestId('company-quotas').waitFor();
      await expect
        .poll(() => root.page.evaluate(() => document.documentElement.scrollWidth - innerWidth))
        .toBeLessThanOrEqual(0);
      await root.page.getByTestId('company-payments').scrollIntoViewIfNeeded();
      await screenshot(root.page, 'resources-payment-quotas-390');
    } finally {
      await root.page.setViewportSize(WIDE);
    }
  });
});
