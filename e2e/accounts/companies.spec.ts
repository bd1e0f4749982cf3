import { UNCHANGED_VALUE_MESSAGE } from '@fleetgate/shared/schemas/companies';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/** Waits for a value as a person would (the default poll gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

let server: RunningServer;
let browser: Browser;
let root: { context: BrowserContext; page: Page };

type CompanyRow = { id: number; name: string; parent_id: number | null; level: number };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  root = await signedInPage(browser, server.url);
});
afterAll(async () => {
  await root?.context.close();
  await browser?.close();
  await server?.dispose();
});

/** Unique per attempt: a retried test must not meet the first attempt's companies. */
const unique = (base: string) => `${base} ${Math.random().toString(36).slice(2, 7)}`;

async function companyNamed(page: Page, name: string): Promise<CompanyRow> {
  const found = await pageApi<{ data: CompanyRow[] }>(
    page,
    'GET',
    `/api/companies?q=${encodeURIComponent(name)}&limit=100`,
  );
  const company = found.body.data.find((c) => c.name === name);
  if (!company) throw new Error(`no company named ${name}`);
  return company;
}

const row = (page: Page, name: string) => page.locator(`[data-testid="company-row"][data-name="${name}"]`);

async function search(page: Page, text: string) {
  await page.getByTestId('companies-search').fill(text);
  await page.waitForURL((url) => url.searchParams.get('q') === text);
}

async function pick(page: Page, form: ReturnType<Page['getByTestId']>, label: string, option: RegExp) {
  await form.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

async function createThroughDialog(page: Page, name: string, parent: RegExp) {
  await page.goto('/companies');
  await page.getByTestId('company-create').click();
  const form = page.getByTestId('form-newCompany');
  await form.getByLabel('Company name').fill(name);
  await pick(page, form, 'Parent company', parent);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Company created successfully').first().waitFor();
  await form.waitFor({ state: 'detached' });
}

describe('companies (product §2 users.companies, company.tree; §3 newCompany, moveCompany; §5)', () => {
  it('creates a company through the dialog and finds it in the table and the tree', async () => {
    const { page } = root;
    const name = unique('Gamma');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    await search(page, name);
    await eventually(() => page.getByTestId('company-row').count()).toBe(1);
    expect(await row(page, name).getByTestId('company-link').textContent()).toBe(name);
    await page.getByTestId('companies-search').fill('');
    await eventually(() => page.getByTestId('company-row').count()).toBeGreaterThan(1);
    await screenshot(page, 'companies-table');

    await page.goto('/companies/tree');
    await page.getByTestId('company-tree').waitFor();
    const node = page.locator(`[data-testid="tree-node"][data-name="${name}"]`);
    await node.waitFor();
    await page.getByTestId('tree-expand-all').click();
    await page.locator('[data-testid="tree-node"][data-name="Acme North"]').waitFor();
    await screenshot(page, 'companies-tree');
    await node.getByTestId('tree-link').first().click();
    const created = await companyNamed(page, name);
    await page.waitForURL(`**/companies/${created.id}/devices`);
    await eventually(() => page.getByTestId('company-level').textContent()).toBe('2');
  });

  it('refuses an unchanged name under the field with the spec’s words', async () => {
    const { page } = root;
    const name = unique('Delta');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    await search(page, name);
    await row(page, name).getByTestId('company-edit').click();
    const form = page.getByTestId('form-editCompany');
    const input = form.getByLabel('Company name');
    await eventually(() => input.inputValue()).toBe(name);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(UNCHANGED_VALUE_MESSAGE).waitFor();
    await eventually(() => input.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'companies-unchanged-name');
    await input.fill(`${name} renamed`);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await search(page, `${name} renamed`);
    await row(page, `${name} renamed`).waitFor();
  });

  it('moves a company under another parent', async () => {
    const { page } = root;
    const name = unique('Epsilon');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    const beta = await companyNamed(page, 'Beta');
    await search(page, name);
    await row(page, name).getByTestId('company-move').click();
    const form = page.getByTestId('form-moveCompany');
    await eventually(() => form.getByRole('combobox', { name: 'Company to move' }).inputValue()).toMatch(
      name,
    );
    await pick(page, form, 'New parent company', new RegExp(`^Beta #${beta.id}$`));
    await form.getByRole('button', { name: 'Move' }).click();
    await page.getByText('Company moved successfully').first().waitFor();
    await eventually(async () => (await companyNamed(page, name)).parent_id).toBe(beta.id);
    const moved = await companyNamed(page, name);
    await page.goto(`/companies/${moved.id}`);
    await eventually(() => page.getByTestId('company-parent').textContent()).toBe('Beta');
    expect(await page.getByTestId('company-level').textContent()).toBe('3');
  });

  it('offers as new parent neither the company itself nor its subsidiaries, nor what breaks the level rule', async () => {
    const { page } = root;
    const name = unique('Theta');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    const targetsFor = async (company: string, shown: () => ReturnType<Page['getByText']>) => {
      await page.goto('/companies');
      await search(page, company);
      await row(page, company).getByTestId('company-move').click();
      const form = page.getByTestId('form-moveCompany');
      await eventually(() => form.getByRole('combobox', { name: 'Company to move' }).inputValue()).toMatch(
        company,
      );
      await form.getByRole('combobox', { name: 'New parent company' }).click();
      // The company-to-move list stays in the page, hidden: only what shows counts (getByRole).
      await shown().waitFor();
      const offered = await page.getByRole('option').allTextContents();
      return { form, offered };
    };

    // Acme has a subsidiary (Acme North): neither may take it, nor its present parent, nor a
    // level-2 company (Acme North would end up at level 4).
    const acme = await targetsFor('Acme', () => page.getByText(/No company can take it/));
    expect(acme.offered.filter((o) => /^Acme( North)? #\d+$/.test(o))).toEqual([]);
    expect(acme.offered.some((o) => o === 'Fleetgate #1')).toBe(false);
    expect(acme.offered.some((o) => o.startsWith('Beta #'))).toBe(false);
    expect(acme.offered).toEqual([]);
    await screenshot(page, 'companies-move-targets-none');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await acme.form.waitFor({ state: 'detached' });

    // A company without subsidiaries may go under another level 1 or 2 company, not under
    // itself, its present parent, or a level-3 company.
    const theta = await targetsFor(name, () => page.getByRole('option', { name: /^Beta #\d+$/ }));
    const beta = await companyNamed(page, 'Beta');
    const acmeRow = await companyNamed(page, 'Acme');
    expect(theta.offered).toEqual(expect.arrayContaining([`Beta #${beta.id}`, `Acme #${acmeRow.id}`]));
    expect(theta.offered.some((o) => o.startsWith(`${name} #`))).toBe(false);
    expect(theta.offered).not.toContain('Fleetgate #1');
    expect(theta.offered.some((o) => o.startsWith('Acme North #'))).toBe(false);
    await screenshot(page, 'companies-move-targets');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await theta.form.waitFor({ state: 'detached' });
  });

  it('refuses to delete a company that still has users, with the server’s words, and deletes an empty one', async () => {
    const { page } = root;
    await page.goto('/companies');
    await search(page, 'Acme North');
    await row(page, 'Acme North').getByTestId('company-delete').click();
    await page.getByTestId('confirm-message').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await eventually(() => page.getByTestId('error-dialog-message').textContent()).toMatch(
      /^The company still has 1 user\. Move or remove them first\.$/,
    );
    await screenshot(page, 'companies-delete-refused');
    await page.getByRole('button', { name: 'OK' }).click();
    await companyNamed(page, 'Acme North');

    const name = unique('Zeta');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    await search(page, name);
    await row(page, name).getByTestId('company-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Company removed successfully').first().waitFor();
    await page.getByTestId('companies-table-empty').waitFor();
    await expect(companyNamed(page, name)).rejects.toThrow();
  });

  it('sets the company flags in the flags dialog and shows them in the company header', async () => {
    const { page } = root;
    const name = unique('Eta');
    await createThroughDialog(page, name, /^Fleetgate #1$/);
    await search(page, name);
    await row(page, name).getByTestId('company-flags').click();
    const form = page.getByTestId('form-companyFlags');
    await form.getByLabel('Require two-step verification').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await row(page, name).getByText('MFA required').waitFor();
    const company = await companyNamed(page, name);
    await page.goto(`/companies/${company.id}`);
    await page.getByTestId('company-flags').getByText('MFA required').waitFor();
    await screenshot(page, 'companies-page');
  });

  it('the company page lists the users of the company in the users tab', async () => {
    const { page } = root;
    const acme = await companyNamed(page, 'Acme');
    await page.goto(`/companies/${acme.id}/users/table`);
    const acmeUsers = Object.values(USERS).filter((u) => u.company === 'Acme');
    await eventually(() => page.getByTestId('company-user-row').count()).toBe(acmeUsers.length);
    await eventually(() => page.getByTestId('company-users-count').textContent()).toBe(
      String(acmeUsers.length),
    );
    for (const user of acmeUsers) await page.getByTestId('company-users').getByText(user.email).waitFor();
  });

  it('an admin never sees Beta: not in the table, the tree, the parent list or by its id', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    const beta = await companyNamed(root.page, 'Beta');
    await page.goto('/companies');
    await page.locator('[data-testid="company-row"][data-name="Acme North"]').waitFor();
    const names = await page
      .getByTestId('company-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
    expect(names.sort()).toEqual(['Acme', 'Acme North']);
    await search(page, 'Beta');
    await page.getByTestId('companies-table-empty').waitFor();

    await page.getByTestId('company-create').click();
    const form = page.getByTestId('form-newCompany');
    await form.getByRole('combobox', { name: 'Parent company' }).click();
    const options = await page.getByRole('option').allTextContents();
    expect(options.some((o) => o.startsWith('Beta'))).toBe(false);
    expect(options.some((o) => o.startsWith('Acme'))).toBe(true);
    await page.keyboard.press('Escape');

    await page.goto('/companies/tree');
    await page.locator('[data-testid="tree-node"][data-name="Acme"]').waitFor();
    expect(await page.locator('[data-testid="tree-node"][data-name="Beta"]').count()).toBe(0);

    await page.goto(`/companies/${beta.id}`);
    await eventually(() => page.getByTestId('company-missing').textContent()).toBe('Company not found');
    await context.close();
  });

  it('a guest has no Companies entry and cannot open the page', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    await page.goto('/users');
    await page.getByTestId('nav-group-administration').waitFor();
    const entries = page.getByTestId('nav-items-administration').getByRole('link');
    await eventually(() => entries.count()).toBeGreaterThan(0);
    expect(await entries.allTextContents()).not.toContain('Companies');
    await page.goto('/companies');
    await page.waitForURL((url) => !url.pathname.startsWith('/companies'));
    await context.close();
  });
});
