import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import { USER_PASSWORD, USERS } from '../support/fixtures';
import { ADMIN, type RunningServer, startServer } from '../support/server';
import { signIn, signInAs } from '../support/session';

let server: RunningServer;
let browser: Browser;
/** The code-app secret and recovery codes the fixture user gets in the first test; the later ones sign in with them. */
let secret = '';
let recovery: string[] = [];

const client = USERS.acmeClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** A code the app would show `offsetSteps` time steps from now (RFC 6238, 30 s). */
function codeFor(base32: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function accountWidgetEmail(page: Page): Promise<string | null> {
  await page.getByTestId('account-widget').click();
  const email = page.getByTestId('account-email');
  await email.waitFor();
  const text = await email.textContent();
  await page.keyboard.press('Escape');
  return text;
}

describe('two-step verification and impersonation in the browser (product §4, §6)', () => {
  it('a user enrols a code app in account settings and gets ten recovery codes', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/account/login');
    await signInAs(page, client);
    await page.goto('/account/settings/security');
    await page.getByTestId('mfa-section').waitFor();
    await page.getByTestId('setup-totp').click();
    await page.getByTestId('totp-qr').waitFor();
    secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'mfa-totp-enrol');
    await page.getByLabel('Code').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await expect.poll(() => page.getByTestId('recovery-code').count()).toBe(10);
    recovery = (await page.getByTestId('recovery-code').allTextContents()).map((c) => c.trim());
    await screenshot(page, 'mfa-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByTestId('mfa-method').textContent()).toBe('On: Code app (TOTP)');
    // Signing out from the settings page ends the session.
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await context.close();
  });

  it('signing in asks for the code in the TOTP verification dialog; a wrong code keeps it open', async () => {
    expect(secret).not.toBe('');
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/account/login');
    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const dialog = page.getByRole('dialog', { name: 'TOTP verification' });
    await dialog.waitFor();
    await dialog.getByLabel('Code').fill('000000');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Invalid verification code (4 attempts left)').waitFor();
    await dialog.locator('button[type="submit"]:not([data-loading])').waitFor();
    await screenshot(page, 'mfa-totp-dialog-wrong-code');
    expect(new URL(page.url()).pathname).toBe('/account/login');
    // The enrolment used this time step: the next one is the fresh code.
    await dialog.getByLabel('Code').fill(codeFor(secret, 1));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/account'));
    await expect.poll(() => accountWidgetEmail(page)).toBe(client.email);
    await context.close();
  });

  it('the user grants impersonation access in account settings', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/account/login');
    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const dialog = page.getByRole('dialog', { name: 'TOTP verification' });
    await dialog.waitFor();
    // A recovery code stands in for the app's code (the last one was used a moment ago).
    await dialog.getByLabel('Code').fill(recovery[0]!);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/account'));
    await page.goto('/account/settings/impersonation');
    await page.getByTestId('impersonation-none').waitFor();
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByRole('button', { name: 'Grant access' }).click();
    await expect
      .poll(() => page.getByTestId('impersonation-granted').textContent())
      .toMatch(/^Support may sign in as you until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\./);
    await screenshot(page, 'impersonation-access-granted');
    const me = await pageApi<{ data: { impersonation_access_limit: string } }>(page, 'GET', '/api/user');
    expect(Date.parse(me.body.data.impersonation_access_limit)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    await context.close();
  });

  it('the super admin impersonates the user, sees the banner, acts with a password confirmation, and cancels', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/account/login');
    await signIn(page);
    await page.goto('/users/impersonation-logs');
    await page.getByTestId('open-impersonate').click();
    const window = page.getByRole('dialog', { name: 'Impersonate user' });
    await window.getByLabel('Search users by e-mail or name').fill('acme.client');
    const row = window.locator(`[data-testid="candidate-row"][data-email="${client.email}"]`);
    await row.getByText(/^Granted until /).waitFor();
    await screenshot(page, 'impersonation-dialog');
    await row.getByRole('button', { name: 'Impersonate' }).click();

    // product §6 banner: 'Currently impersonating user {email}, {company name} #{company id}'.
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    const me = await pageApi<{ data: { company_id: number; isImpersonating: boolean } }>(
      page,
      'GET',
      '/api/user',
    );
    expect(me.body.data.isImpersonating).toBe(true);
    await expect
      .poll(() => banner.getByTestId('impersonation-banner-text').textContent())
      .toBe(`Currently impersonating user ${client.email}, Acme #${me.body.data.company_id}`);
    await page.getByTestId('page-frame').waitFor();
    await screenshot(page, 'impersonation-banner');

    // On a phone the whole text shows, on two lines, and the way back is a named icon on screen.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    const text = banner.getByTestId('impersonation-banner-text');
    await expect
      .poll(() =>
        text.evaluate((el) => el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth),
      )
      .toBe(true);
    const back = banner.getByRole('button', { name: 'Cancel impersonation' });
    const box = (await back.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'impersonation-banner-390');
    await page.setViewportSize(desktop);

    // An audited action as the user: the profile, from account settings.
    await page.goto('/account/settings/profile');
    await page.getByTestId('settings-impersonating').waitFor();
    await page.getByLabel('Username').fill('Acme client, helped by support');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully').waitFor();

    // A sensitive action asks the real actor for their password (423), then goes through.
    await page.goto('/account/settings/security');
    await page.getByRole('button', { name: 'Sign out all other browsers' }).click();
    await page
      .getByRole('dialog', { name: 'Sign out all other browsers?' })
      .getByRole('button', { name: 'Sign them out' })
      .click();
    const prompt = page.getByRole('dialog', { name: 'Confirm your password' });
    await prompt.waitFor();
    await screenshot(page, 'impersonation-password-prompt');
    await prompt.getByRole('textbox', { name: 'Password' }).fill(USER_PASSWORD);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await prompt.getByText('Incorrect password').waitFor();
    await prompt.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Sessions revoked successfully').waitFor();

    // Cancel: back to the console as the super admin, no banner.
    await page.goto('/management/devices');
    await banner.waitFor();
    await page.getByTestId('account-widget').click();
    await page.getByRole('menuitem', { name: 'Logout and cancel impersonation' }).click();
    // The reload comes back without the banner: the session is the super admin's own again.
    await banner.waitFor({ state: 'detached' });
    await page.getByTestId('page-frame').waitFor();
    await expect.poll(() => accountWidgetEmail(page)).toBe(ADMIN.email);

    await page.goto('/users/impersonation-logs');
    const log = page.getByTestId('impersonation-log-row').first();
    await log.waitFor();
    await expect.poll(() => log.locator('td').nth(0).textContent()).toBe(ADMIN.email);
    expect(await log.locator('td').nth(1).textContent()).toBe(client.email);
    await expect
      .poll(() => log.locator('td').nth(4).textContent())
      .toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await screenshot(page, 'impersonation-logs');

    // The user's profile carries the change made for them.
    const profile = await pageApi<{ data: { username: string } }>(
      page,
      'GET',
      '/api/users?q=acme.client&fields=username',
    );
    expect(profile.body.data).toEqual([{ username: 'Acme client, helped by support' }]);
    await context.close();
  });
});
