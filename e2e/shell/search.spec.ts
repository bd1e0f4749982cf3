import { PAGE_SIZES } from '@fleetgate/shared/constants';
import { pathOf } from '@fleetgate/shared/routes';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { COMPANIES, USERS } from '../support/fixtures';
import { ADMIN, type RunningServer, startServer } from '../support/server';
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

/** Search requests the page sends, by endpoint path. */
function recordSearches(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && url.searchParams.has('q')) seen.push(url);
  });
  return seen;
}

async function openWithSlash(page: Page) {
  await page.getByTestId('account-widget').waitFor();
  await page.locator('body').press('/');
  await page.getByTestId('search-input').waitFor();
  // The search field has the focus: the user types at once.
  await expect
    .poll(() => page.getByTestId('search-input').evaluate((el) => el === document.activeElement))
    .toBe(true);
}

const groupCount = (page: Page, id: string) =>
  page.getByTestId(`search-group-${id}`).getByTestId('search-group-count').textContent();
const message = (page: Page) => page.getByTestId('search-message').textContent();

// The fixtures every e2e data directory starts with (e2e/support/fixtures.ts).
const acmeCompanies = COMPANIES.filter((name) => name.toLowerCase().includes('acme')).length;
const acmeUsers = Object.values(USERS).filter((u) => u.email.includes('acme')).length;

describe('global search (product §2 Global search, §7 Search, §9)', () => {
  it("opens with '/', searches companies and users after the pause in typing, grouped with counts", async () => {
    const { context, page } = await signedInPage(browser, server.url);
    const searches = recordSearches(page);
    await openWithSlash(page);
    await expect.poll(() => message(page)).toBe('Type to start searching');
    // Typing that pauses less than 500 ms between keys sends one search per endpoint, for the whole word.
    await page.keyboard.type('acme', { delay: 60 });
    await expect.poll(() => groupCount(page, 'companies')).toBe(String(acmeCompanies));
    await expect.poll(() => groupCount(page, 'users')).toBe(String(acmeUsers));
    // One request per chosen endpoint (every endpoint the super admin may read), all for the whole word.
    const sent = searches.map((u) => `${u.pathname}?q=${u.searchParams.get('q')}`);
    expect(sent).toEqual(expect.arrayContaining(['/api/companies?q=acme', '/api/users?q=acme']));
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.every((s) => s.endsWith('?q=acme'))).toBe(true);
    for (const url of searches) {
      expect(url.searchParams.get('limit')).toBe(String(PAGE_SIZES.search));
      expect(url.searchParams.get('search-fields')).toBe('name,email');
      expect(url.searchParams.get('fields')).toBe('id,name,status,email,protocol,enabled,color');
    }
    const companyResults = page.getByTestId('search-group-companies').getByTestId('search-result');
    await expect.poll(() => companyResults.count()).toBe(acmeCompanies);
    await screenshot(page, 'search-results');

    await page.getByRole('button', { name: 'View Users in table' }).click();
    await page.waitForURL(
      (url) => url.pathname === pathOf('users.table') && url.searchParams.get('q') === 'acme',
    );
    await context.close();
  });

  it("says 'No results found' when nothing matches", async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWithSlash(page);
    await page.getByTestId('search-input').fill('no-such-thing-anywhere');
    await expect.poll(() => message(page)).toBe('No results found');
    await context.close();
  });

  it('a result opens its page', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWithSlash(page);
    await page.getByTestId('search-input').fill('Acme North');
    const result = page.getByTestId('search-group-companies').getByTestId('search-result').first();
    await expect.poll(() => result.textContent()).toContain('Acme North');
    await result.click();
    await page.waitForURL((url) => /^\/companies\/\d+\//.test(url.pathname));
    await expect.poll(() => page.getByTestId('search-input').count()).toBe(0);
    await context.close();
  });

  it('remembers the chosen endpoints across reloads', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWithSlash(page);
    // Users stays the only chosen endpoint.
    const names = await page
      .getByTestId('search-modal')
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).labels?.[0]?.textContent ?? ''));
    for (const name of names.filter((n) => n !== 'Users')) {
      await page.getByTestId('search-modal').getByRole('checkbox', { name, exact: true }).uncheck();
    }
    await page.keyboard.press('Escape');
    await page.reload();
    const searches = recordSearches(page);
    await openWithSlash(page);
    expect(await page.getByRole('checkbox', { name: 'Companies' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Users' }).isChecked()).toBe(true);
    await page.getByTestId('search-input').fill('acme');
    await expect.poll(() => groupCount(page, 'users')).toBe(String(acmeUsers));
    expect(await page.getByTestId('search-group-companies').count()).toBe(0);
    expect(searches.map((u) => u.pathname)).toEqual(['/api/users']);

    await page.getByRole('checkbox', { name: 'Users' }).uncheck();
    await expect.poll(() => message(page)).toBe('No search criteria selected');
    await context.close();
  });

  it('a guest without view_companies is offered users but never companies', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    const searches = recordSearches(page);
    await page.getByTestId('search-button').click();
    await page.getByTestId('search-input').waitFor();
    await page.getByRole('checkbox', { name: 'Users' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Companies' }).count()).toBe(0);
    await page.getByTestId('search-input').fill('fleetgate.test');
    // A guest sees only their own company's users (product §6 read_only).
    const own = Object.values(USERS).filter((u) => u.company === USERS.acmeGuest.company).length;
    await expect.poll(() => groupCount(page, 'users')).toBe(String(own));
    expect(searches.some((u) => u.pathname === '/api/companies')).toBe(false);
    expect(await page.getByTestId('search-group-users').getByText(ADMIN.email, { exact: true }).count()).toBe(
      0,
    );
    await context.close();
  });

  it("does not open while the user types '/' in a field", async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await openWithSlash(page);
    const input = page.getByTestId('search-input');
    await input.fill('');
    await input.press('/');
    // The '/' went into the field: the search is a field like any other.
    await expect.poll(() => input.inputValue()).toBe('/');
    await context.close();
  });
});
