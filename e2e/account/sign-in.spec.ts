import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';
import { signIn } from '../support/session';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('sign-in (product §4, §5)', () => {
  it('a visitor is sent to the sign-in page with a continue_url, signs in and sees the landing page', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/management/devices');
    await page.waitForURL(/\/account\/login\?continue_url=/);
    expect(new URL(page.url()).searchParams.get('continue_url')).toBe(`${server.url}/management/devices`);
    await screenshot(page, 'sign-in');
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/management/devices');
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    await page.getByTestId('account-widget').click();
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe('admin@fleetgate.test');
    await screenshot(page, 'landing');
    await context.close();
  });

  it('a wrong password shows the error and keeps the user on the sign-in page', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/account/login');
    await page.getByLabel('Email').fill('admin@fleetgate.test');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/account/login');
    await screenshot(page, 'sign-in-error');
    await context.close();
  });

  it('checks the fields with the shared rules before anything is sent', async () => {
    const { context, page } = await newPage(browser, server.url);
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) posted += 1;
    });
    await page.goto('/account/login');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter a valid email address').waitFor();
    await page.getByText('Password is required').waitFor();
    expect(posted).toBe(0);
    await context.close();
  });

  it('signing out ends the session: the console asks to sign in again', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/');
    await signIn(page);
    await page.getByTestId('account-widget').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login$/);
    await page.goto('/management/devices');
    await page.waitForURL(/\/account\/login\?continue_url=/);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'fg_session')).toBeUndefined();
    await context.close();
  });

  it('continue_url brings the user back to the page asked for, but never to another host', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto(
      `/account/login?continue_url=${encodeURIComponent(`${server.url}/management/devices?x=1`)}`,
    );
    await signIn(page);
    expect(page.url()).toBe(`${server.url}/management/devices?x=1`);
    await context.close();

    const other = await newPage(browser, server.url);
    await other.page.goto(`/account/login?continue_url=${encodeURIComponent('https://evil.example/steal')}`);
    await signIn(other.page);
    expect(new URL(other.page.url()).host).toBe(new URL(server.url).host);
    await other.context.close();
  });

  it('an expired session cookie is refreshed at start without asking to sign in again', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/');
    await signIn(page);
    const cookies = await context.cookies();
    await context.clearCookies({ name: 'fg_session' });
    expect(cookies.some((c) => c.name === 'fg_refresh')).toBe(true);
    await page.goto('/management/devices');
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/management/devices');
    expect((await context.cookies()).some((c) => c.name === 'fg_session')).toBe(true);
    await context.close();
  });

  it('three consecutive failures of the user request show the maintenance page', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/');
    await signIn(page);
    let calls = 0;
    await page.route('**/api/user', (route) => {
      calls += 1;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"success":false,"errors":[]}',
      });
    });
    await page.reload();
    await page.getByTestId('maintenance-page').waitFor();
    await page.getByText('Failed to get user data').waitFor();
    expect(calls).toBe(3);
    await screenshot(page, 'maintenance');
    await context.close();
  });
});
