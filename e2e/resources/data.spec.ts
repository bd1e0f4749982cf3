import { cpSync, rmSync } from 'node:fs';
import { openDatabase } from '@fleetgate/server/db/database';
import { companies } from '@fleetgate/server/db/schema/companies';
import { devicesRepository } from '@fleetgate/server/modules/devices/devices.repository';
import { spendData } from '@fleetgate/server/modules/resources/data-usage.service';
import { GB } from '@fleetgate/shared/resources';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { axeViolations, describeViolations } from '../support/axe';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { freshDir, type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Company data in Chromium (product §2 services.data-history, services.data-overview,
 * company.data-history, company.resources.data-history): the super admin reads what the
 * companies spent, finds the company about to run out on the overview and opens its days,
 * on its company page too; a company that spent nothing sees the empty history; at 1440 px
 * and at 390 px.
 *
 * Remote access and VPN, which spend data, are not built yet, and the harness cannot run code
 * inside the server. So the spending is written the way the fixtures are: through the
 * server's own posting function (spendData), into a copy of the data directory before the
 * server starts on it. No test-only route is added to the server.
 */

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;
/** A day `days` before today, as the server counts days (UTC). */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const MB = 1024 ** 2;

let server: RunningServer;
let browser: Browser;
let root: { context: BrowserContext; page: Page };
const ids: Record<string, number> = {};

/**
 * Acme North (5 GB of trial data) spends 5.5 GB over three days: the last 512 MB went unpaid
 * and it has nothing left, so it runs out today. Acme spends 1 GB and keeps 4 GB; Beta spends
 * nothing.
 */
async function seedSpending(dataDir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir: `${dataDir}/pglite` });
  try {
    for (const c of await database.db.select({ id: companies.id, name: companies.name }).from(companies))
      ids[c.name] = c.id;
    const gateway = await devicesRepository.insert(database.db, {
      companyId: ids['Acme North']!,
      serial: '1100000001',
      mac: '00:1E:42:00:00:01',
      name: 'North pier gateway',
    });
    const depot = await devicesRepository.insert(database.db, {
      companyId: ids.Acme!,
      serial: '1100000002',
      mac: '00:1E:42:00:00:02',
      name: 'Depot router',
    });
    ids.gateway = gateway!.id;
    // Nobody is told of low data here: the notices are not what this spec reads.
    const deps = { db: database.db, notifications: { notify: async () => [] } };
    await spendData(deps, {
      companyId: ids['Acme North']!,
      deviceId: gateway!.id,
      purpose: 'remote_access',
      bytes: 2 * GB,
      at: daysAgo(3),
    });
    await spendData(deps, { companyId: ids['Acme North']!, purpose: 'vpn', bytes: 1.5 * GB, at: daysAgo(2) });
    await spendData(deps, {
      companyId: ids['Acme North']!,
      deviceId: gateway!.id,
      purpose: 'remote_access',
      bytes: 2 * GB,
      at: daysAgo(1),
    });
    await spendData(deps, {
      companyId: ids.Acme!,
      deviceId: depot!.id,
      purpose: 'vpn',
      bytes: GB,
      at: daysAgo(1),
    });
  } finally {
    await database.close();
  }
}

/** Help panels closed ahead (kept in the user's storage, product §7 Storage), so none opens midway. */
async function dismissHelp(page: Page, routes: readonly string[]) {
  const saved = await pageApi(page, 'POST', '/api/storage', { key: 'help.dismissed', value: routes });
  expect(saved.status).toBe(200);
  await page.reload();
}

const usageRows = (page: Page) => page.getByTestId('data-usage-row');
const purposes = (page: Page) =>
  usageRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-purpose')));

/** Nothing sticks out past the screen: the page never scrolls sideways (tables scroll inside). */
async function fitsTheScreen(page: Page, where: string) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: innerWidth,
  }));
  expect(widths.page, where).toBeLessThanOrEqual(widths.viewport);
}

beforeAll(async () => {
  const dataDir = freshDir('fleetgate-data-');
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  await seedSpending(dataDir);
  [server, browser] = await Promise.all([startServer({ template: dataDir }), launchBrowser()]);
  rmSync(dataDir, { recursive: true, force: true });
  root = await signedInPage(browser, server.url, undefined, { viewport: WIDE });
  // The super admin meets the data history's help in the first test; the rest pass by.
  await dismissHelp(root.page, ['services.credit-history', 'services.data-overview', 'company.data-history']);
});
afterAll(async () => {
  await root?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('company data (product §2)', () => {
  it('the super admin reads every company’s days, with the unpaid part explained, and filters them', async () => {
    const { page } = root;
    await page.goto('/resources/credits');
    // Data history is a tab of the resources pages for holders of view_company_data_history.
    await page.getByRole('tab', { name: 'Data history' }).click();
    await page.waitForURL('**/resources/data-history');
    // services.data-history is a help-panel route: its help opens by itself.
    const help = page.getByRole('dialog', { name: /Help/ });
    await help.waitFor();
    await eventually(() => help.textContent()).toContain('was relayed after the company');
    await help.getByRole('button', { name: 'Close help' }).click();
    await help.waitFor({ state: 'detached' });

    await eventually(() => usageRows(page).count()).toBe(4);
    // Newest day first: yesterday's two, then Acme North's VPN day and its first day.
    expect(await purposes(page)).toEqual(['vpn', 'remote_access', 'vpn', 'remote_access']);
    const unpaidRow = page.locator('[data-testid="data-usage-row"][data-unpaid="yes"]');
    expect(await unpaidRow.count()).toBe(1);
    expect(await unpaidRow.textContent()).toContain(dayOf(daysAgo(1)));
    expect(await unpaidRow.getByTestId('data-bytes').textContent()).toBe('2 GB');
    const unpaid = unpaidRow.getByTestId('data-unpaid');
    expect(await unpaid.textContent()).toBe('512 MB unpaid');
    await unpaid.hover();
    await page.getByRole('tooltip').filter({ hasText: "Relayed after the company's data ran out" }).waitFor();
    expect(await unpaidRow.getByRole('link', { name: 'North pier gateway' }).getAttribute('href')).toBe(
      `/devices/${ids.gateway}`,
    );
    expect(await unpaidRow.getByTestId('data-purpose').textContent()).toBe('Remote access');
    // The VPN day of no single device.
    const vpnDay = usageRows(page).nth(2);
    expect(await vpnDay.textContent()).toContain('No device');
    expect(await vpnDay.getByTestId('data-purpose').textContent()).toBe('VPN');
    expect(await page.getByTestId('data-usage-page-total').textContent()).toBe(
      'Total on this page: 6.5 GB, of which 512 MB unpaid',
    );
    await screenshot(page, 'data-history-1440');

    // One company, then a period: the rows follow, the page stays the first.
    await page.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: `Acme North #${ids['Acme North']}`, exact: true }).click();
    await eventually(() => usageRows(page).count()).toBe(3);
    await page.getByTestId('data-usage-from').fill(dayOf(daysAgo(2)));
    await eventually(() => purposes(page)).toEqual(['remote_access', 'vpn']);
    expect(new URL(page.url()).search).toBe(`?company=${ids['Acme North']}&from=${dayOf(daysAgo(2))}`);
    await page.getByTestId('data-usage-to').fill(dayOf(daysAgo(3)));
    await page.getByText('The last day must not be before the first').waitFor();
    await eventually(() => page.getByTestId('data-usage-empty').textContent()).toBe(
      'No data use matches the filters',
    );
  });

  it('the overview shows the company about to run out in red and opens its days', async () => {
    const { page } = root;
    await page.goto('/resources/data-history');
    await page.getByTestId('data-overview-open').click();
    await page.waitForURL('**/resources/data-overview');
    const row = (name: string) => page.locator(`[data-testid="data-overview-row"][data-company="${name}"]`);
    await row('Beta').waitFor();
    // Acme North has nothing left at its pace: it runs out today.
    const north = row('Acme North');
    expect(await north.getByTestId('data-remaining').textContent()).toBe('0 MB');
    expect(await north.getByTestId('data-spent').textContent()).toBe('5.5 GB');
    expect(await north.getByTestId('data-daily').textContent()).toBe(
      `${Number(((5.5 * GB) / 30 / MB).toFixed(1))} MB`,
    );
    expect(await north.getByTestId('data-runs-out').textContent()).toBe(dayOf(new Date()));
    expect(await north.getByTestId('data-runs-out').getAttribute('data-soon')).toBe('yes');
    const colour = await north.getByTestId('data-runs-out').evaluate((el) => getComputedStyle(el).color);
    const plain = await row('Acme')
      .getByTestId('data-remaining')
      .evaluate((el) => getComputedStyle(el).color);
    expect(colour).not.toBe(plain);
    // Acme keeps 4 GB at 1 GB a month: months away, not marked.
    expect(await row('Acme').getByTestId('data-remaining').textContent()).toBe('4 GB');
    expect(await row('Acme').getByTestId('data-runs-out').getAttribute('data-soon')).toBe('no');
    // Beta spent nothing: no day to foresee.
    expect(await row('Beta').getByTestId('data-runs-out').textContent()).toBe('—');
    await screenshot(page, 'data-overview-1440');

    await north.getByTestId('data-spent').click();
    await page.waitForURL(`**/resources/data-history?company=${ids['Acme North']}`);
    await eventually(() => usageRows(page).count()).toBe(3);
    expect(await page.getByRole('combobox', { name: 'Company' }).inputValue()).toBe(
      `Acme North #${ids['Acme North']}`,
    );
  });

  it("the company's page shows the same days kept to it, and its resources tab both sides of its data", async () => {
    const { page } = root;
    await page.goto(`/companies/${ids['Acme North']}/data-history`);
    await eventually(() => usageRows(page).count()).toBe(3);
    // Kept to the company: no company column and no company filter.
    expect(await page.getByRole('columnheader', { name: 'Company' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Company' }).count()).toBe(0);
    await screenshot(page, 'data-company-tab-1440');

    await page.goto(`/companies/${ids['Acme North']}/resources/data-history`);
    const given = page.getByTestId('data-given');
    const used = page.getByTestId('data-used');
    await eventually(() =>
      given.getByTestId('movement-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))),
    ).toEqual(['trial_data']);
    await eventually(() => used.getByTestId('data-usage-row').count()).toBe(3);
    expect(await page.getByTestId('balance-data').textContent()).toBe('0 MB');
    await screenshot(page, 'data-company-resources-1440');
  });

  it('a company that spent nothing sees the empty history', async () => {
    const beta = await signedInPage(browser, server.url, USERS.betaAdmin, { viewport: WIDE });
    await dismissHelp(beta.page, ['services.data-history', 'services.data-overview']);
    await beta.page.goto('/resources/data-history');
    await eventually(() => beta.page.getByTestId('data-usage-empty').textContent()).toContain(
      'No data has been spent yet',
    );
    await screenshot(beta.page, 'data-history-empty');
    await beta.context.close();
  });

  it('a role without view_company_data_history sees no Data history tab and cannot open it', async () => {
    const client = await signedInPage(browser, server.url, USERS.acmeClient, { viewport: WIDE });
    await client.page.goto('/resources/credits');
    await client.page.getByTestId('page-frame').waitFor();
    expect(await client.page.getByRole('tab', { name: 'Data history' }).count()).toBe(0);
    // Its address leads elsewhere: the route is gated (product §5).
    await client.page.goto('/resources/data-history');
    await client.page.waitForURL((url) => !url.pathname.startsWith('/resources/data-history'));
    await client.context.close();
  });

  it('with rows, the unpaid part and a red day, both screens meet WCAG AA in the light and the dark scheme', async () => {
    const { context, page } = root;
    const failures: string[] = [];
    for (const scheme of [
      { name: 'light', cookie: 'off' },
      { name: 'dark', cookie: 'on' },
    ]) {
      // The dark-mode cookie the console reads before its first paint (product §4).
      await context.addCookies([{ name: 'dark_mode', value: scheme.cookie, url: server.url }]);
      for (const [path, ready] of [
        ['/resources/data-history', '[data-testid="data-usage-row"][data-unpaid="yes"]'],
        ['/resources/data-overview', '[data-testid="data-runs-out"][data-soon="yes"]'],
      ] as const) {
        await page.goto(path);
        await page.locator(ready).waitFor();
        const violations = await axeViolations(page);
        if (violations.length) failures.push(describeViolations(violations, `${path} (${scheme.name})`));
        if (scheme.name === 'dark') await screenshot(page, `${path.split('/').at(-1)}-dark`);
      }
    }
    await context.addCookies([{ name: 'dark_mode', value: 'off', url: server.url }]);
    expect(failures.join('\n')).toBe('');
  });

  it('at 390 px both screens stack and nothing sticks out past the screen', async () => {
    const { page } = root;
    await page.setViewportSize(PHONE);
    await page.goto('/resources/data-history');
    await eventually(() => usageRows(page).count()).toBe(4);
    await fitsTheScreen(page, 'data history');
    await screenshot(page, 'data-history-390');
    await page.goto('/resources/data-overview');
    await page.getByTestId('data-overview-row').first().waitFor();
    await fitsTheScreen(page, 'data overview');
    await screenshot(page, 'data-overview-390');
    await page.goto(`/companies/${ids['Acme North']}/resources/data-history`);
    await page.getByTestId('data-used').getByTestId('data-usage-row').first().waitFor();
    await fitsTheScreen(page, 'company resources data history');
    await screenshot(page, 'data-company-resources-390');
    await page.setViewportSize(WIDE);
  });
});
