import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from '../support/browser';
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

const GROUPS = ['Management', 'Connect', 'VPN', 'Administration', 'System'];
const GROUP_IDS: Record<string, string> = {
  Management: 'devices',
  Connect: 'connect',
  VPN: 'vpn',
  Administration: 'administration',
  System: 'system',
};

async function visibleGroups(page: Page): Promise<string[]> {
  await page
    .getByTestId('nav-group-devices')
    .or(page.getByTestId('nav-group-administration'))
    .first()
    .waitFor();
  const texts = await page.locator('[data-testid^="nav-group-"]').allTextContents();
  return texts.map((t) => t.trim());
}

/** The hrefs of a group's entries, opening the group first. */
async function entries(page: Page, group: string): Promise<string[]> {
  const id = GROUP_IDS[group]!;
  const button = page.getByTestId(`nav-group-${id}`);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const links = page.getByTestId(`nav-items-${id}`).locator('a[href]');
  await links.first().waitFor();
  return links.evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
}

describe('routes × roles (product §2 Navigation, §5 route guard, §6)', () => {
  it('a super admin sees every group, System included', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    expect(await visibleGroups(page)).toEqual(GROUPS);
    expect(await entries(page, 'System')).toEqual(
      expect.arrayContaining([
        '/notices',
        '/system/mail-logs',
        '/auth-devices',
        '/files/global/firmware',
        '/email-smtp',
      ]),
    );
    await screenshot(page, 'shell-super-admin');
    await context.close();
  });

  it('an admin sees everything but the System group', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin);
    expect(await visibleGroups(page)).toEqual(['Management', 'Connect', 'VPN', 'Administration']);
    expect(await entries(page, 'Administration')).toEqual(
      expect.arrayContaining(['/companies', '/users', '/resources', '/redeem-code']),
    );
    await context.close();
  });

  it('a guest sees only what it may view: no companies, no monitoring templates, no System', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    expect(await visibleGroups(page)).toEqual(['Management', 'Connect', 'VPN', 'Administration']);
    const admin = await entries(page, 'Administration');
    expect(admin).toContain('/users');
    expect(admin).not.toContain('/companies');
    expect(admin).not.toContain('/redeem-code');
    const management = await entries(page, 'Management');
    expect(management).not.toContain('/monitoring-templates');
    expect(management).not.toContain('/device-configuration');
    await screenshot(page, 'shell-guest');
    await context.close();
  });

  it('a guessed URL of a forbidden page sends the user to the first page they may see', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    for (const path of [
      '/companies',
      '/system/mail-logs',
      '/monitoring-templates/create',
      '/companies/1/users',
    ]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/management/devices');
    }
    await context.close();
  });

  it('an allowed page opens with its title and breadcrumbs', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/companies/1/users/invitations');
    const frame = page.getByTestId('page-frame');
    // The company page is titled with the company's name (the root company here).
    await frame.getByRole('heading', { name: 'Fleetgate' }).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect.poll(() => crumbs.textContent()).toContain('Companies');
    expect(await crumbs.getByRole('link', { name: 'Companies' }).getAttribute('href')).toBe('/companies');
    expect(await page.getByRole('tab', { name: 'Invitations', selected: true }).count()).toBe(1);
    // The tab shows the company's invitations table.
    await page.getByTestId('invitations-table').waitFor();
    await context.close();
  });

  it('redirects as the spec says: company → devices tab, device → activity, reports → single, resources → credits', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    const cases: [string, string][] = [
      ['/companies/1', '/companies/1/devices'],
      ['/devices/7', '/devices/7/activity'],
      ['/reports', '/reports/single'],
      ['/resources', '/resources/credits'],
      ['/statistics', '/statistics/general'],
      ['/devices/7/metrics', '/devices/7/metrics/dynamic'],
    ];
    for (const [from, to] of cases) {
      await page.goto(from);
      await page.waitForURL((url) => url.pathname === to);
    }
    await context.close();
  });

  it('an unknown path goes to the first permitted page; /404 opens without a session', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/management/devices');
    await context.close();

    const anonymous = await newPage(browser, server.url);
    await anonymous.page.goto('/404');
    await anonymous.page.getByRole('heading', { name: '404' }).waitFor();
    expect(new URL(anonymous.page.url()).pathname).toBe('/404');
    await anonymous.context.close();
  });

  it('the connect launchers select their screens; ssh and desktop with a key skip sign-in (product §2)', async () => {
    const anonymous = await newPage(browser, server.url);
    // Without sign-in the ssh screen reads its key; this one opens nothing, and says so in words.
    await anonymous.page.goto('/rms-connect/ssh?key=session-1');
    await anonymous.page.getByTestId('connect-ssh').waitFor();
    expect(await anonymous.page.getByTestId('connect-ssh-key').textContent()).toBe(
      'This share link is not valid, or it has expired',
    );
    expect(anonymous.page.url()).toContain('/rms-connect/ssh?key=session-1');
    await anonymous.page.goto('/rms-connect/desktop?key=session-2');
    await anonymous.page.getByTestId('connect-desktop').waitFor();
    await anonymous.page.goto('/rms-connect/sftp?device=7');
    await anonymous.page.waitForURL(/\/account\/login\?continue_url=/);
    await anonymous.context.close();

    const { context, page } = await signedInPage(browser, server.url);
    await page.goto('/rms-connect/telnet?device=7');
    await page.getByTestId('connect-telnet').waitFor();
    expect(await page.getByTestId('navigation').count()).toBe(0);
    await context.close();
  });
});
