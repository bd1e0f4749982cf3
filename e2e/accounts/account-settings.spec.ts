import type { ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { openDatabase } from '@fleetgate/server/db/database';
import { companies } from '@fleetgate/server/db/schema/companies';
import { users } from '@fleetgate/server/db/schema/users';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import { USER_PASSWORD, USERS } from '../support/fixtures';
import { ADMIN, freshDir, serverEnv, spawnServer, waitForExit, waitForUrl } from '../support/server';
import { signIn, signInAs } from '../support/session';

let url = '';
let dataDir = '';
let child: ChildProcess | undefined;
let browser: Browser;

/**
 * The template's data, with the states these screens are for: a user who has not accepted
 * the data agreement, one whose username is their e-mail, and a company that requires
 * two-step verification. Written before the server opens the database.
 */
async function prepare(dir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir: `${dir}/pglite` });
  try {
    await database.db
      .update(users)
      .set({ tosAcceptedAt: null })
      .where(eq(users.email, USERS.acmeGuest.email));
    await database.db
      .update(users)
      .set({ username: sql`${users.email}` })
      .where(eq(users.email, USERS.acmeAdvanced.email));
    await database.db.update(companies).set({ mfaMandatory: true }).where(eq(companies.name, 'Beta'));
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = freshDir();
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  await prepare(dataDir);
  const spawned = spawnServer(serverEnv(dataDir));
  child = spawned.child;
  [url, browser] = await Promise.all([
    waitForUrl(spawned.child, spawned.output).then((u) => u.replace('localhost', '127.0.0.1')),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) child.kill('SIGTERM');
  if (child) await waitForExit(child).catch(() => child?.kill('SIGKILL'));
  rmSync(dataDir, { recursive: true, force: true });
});

const codeFor = (base32: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

async function enrolTotp(page: Page): Promise<string> {
  await page.getByTestId('setup-totp').click();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
  await page.getByLabel('Code').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  return secret;
}

describe('account settings and the modals before work (product §4, §6)', () => {
  it('a default-brand user who has not accepted gets the data agreement without header controls', async () => {
    const { context, page } = await newPage(browser, url);
    await page.goto('/account/login');
    await signInAs(page, USERS.acmeGuest);
    const agreement = page.getByTestId('data-agreement');
    await agreement.waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Close' }).count()).toBe(0);
    await screenshot(page, 'account-data-agreement');
    await page.keyboard.press('Escape');
    await agreement.waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await agreement.waitFor({ state: 'detached' });
    const me = await pageApi<{ data: { tos_accepted: boolean } }>(page, 'GET', '/api/user');
    expect(me.body.data.tos_accepted).toBe(true);
    await page.reload();
    await page.getByTestId('page-frame').waitFor();
    expect(await agreement.count()).toBe(0);
    await context.close();
  });

  it("a username equal to the e-mail opens 'Please enter your email address'; a new username closes it", async () => {
    const { context, page } = await newPage(browser, url);
    await page.goto('/account/login');
    await signInAs(page, USERS.acmeAdvanced);
    const modal = page.getByRole('dialog', { name: 'Please enter your email address' });
    await modal.waitFor();
    await modal.getByLabel('Username').fill(USERS.acmeAdvanced.email.toUpperCase());
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Choose a username that is not your email address').waitFor();
    await screenshot(page, 'account-enter-email');
    await modal.getByLabel('Username').fill('Acme Advanced');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    const me = await pageApi<{ data: { username: string } }>(page, 'GET', '/api/user');
    expect(me.body.data.username).toBe('Acme Advanced');
    await context.close();
  });

  it('MFA_MANDATORY shows the notice screen, where the user sets up a code app and gets in', async () => {
    const { context, page } = await newPage(browser, url);
    await page.goto('/account/login');
    await signInAs(page, USERS.betaAdmin);
    const notice = page.getByTestId('notice-screen');
    await notice.waitFor();
    expect(await notice.getAttribute('data-code')).toBe('MFA_MANDATORY');
    await notice.getByRole('heading', { name: 'Two-step verification required' }).waitFor();
    await screenshot(page, 'notice-mfa-mandatory');
    await enrolTotp(page);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByTestId('page-frame').waitFor();
    expect(await notice.count()).toBe(0);
    await context.close();
  });

  it('personal access tokens: created with a password confirmation, shown once, used as Bearer, revoked', async () => {
    const { context, page } = await newPage(browser, url);
    await page.goto('/account/login');
    await signInAs(page, USERS.northAdmin);
    await page.goto('/account/settings/tokens');
    await page.getByTestId('tokens-need-mfa').waitFor();
    await page.goto('/account/settings/security');
    await enrolTotp(page);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.goto('/account/settings/tokens');
    await page.getByLabel('Name').fill('Inventory export');
    await page.getByText('devices:read', { exact: true }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm your password' });
    await prompt.getByRole('textbox', { name: 'Password' }).fill(USER_PASSWORD);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    const value = page.getByTestId('new-token-value');
    await value.waitFor();
    const token = ((await value.textContent()) ?? '').trim();
    expect(token).toMatch(/^fgp_/);
    await page.getByTestId('token-row').first().waitFor();
    await screenshot(page, 'account-tokens');

    const list = await fetch(`${url}/api/devices`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    const mint = await fetch(`${url}/api/user/tokens`, { headers: { authorization: `Bearer ${token}` } });
    expect(mint.status).toBe(403);

    // Shown once: a reload lists the token by its prefix only.
    await page.reload();
    await page.getByTestId('token-row').first().waitFor();
    expect(await page.getByTestId('new-token').count()).toBe(0);
    await page.getByTestId('token-row').first().getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke access token?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByText('You have no access tokens.').waitFor();
    const after = await fetch(`${url}/api/devices`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    await context.close();
  });

  it('an admin asks for access by e-mail; the user confirms on the link and chooses the end', async () => {
    const admin = await newPage(browser, url);
    await admin.page.goto('/account/login');
    await signIn(admin.page);
    const users = await pageApi<{ data: { id: number }[] }>(
      admin.page,
      'GET',
      `/api/users?q=${USERS.acmeClient.email}`,
    );
    const subjectId = users.body.data[0]!.id;
    const asked = await pageApi(
      admin.page,
      'POST',
      `/api/users/${subjectId}/impersonation-access-request`,
      {},
    );
    expect(asked.status).toBe(200);
    const logs = await pageApi<{ data: { id: number; template: string }[] }>(
      admin.page,
      'GET',
      `/api/mail-logs?q=${USERS.acmeClient.email}`,
    );
    const mailId = logs.body.data.find((m) => m.template === 'impersonation_request')!.id;
    const mail = await pageApi<{ data: { text: string } }>(admin.page, 'GET', `/api/mail-logs/${mailId}`);
    const link = /(\/users\/confirm-impersonation-access\/[A-Za-z0-9_-]+)/.exec(mail.body.data.text)![1]!;
    await admin.context.close();

    const { context, page } = await newPage(browser, url);
    await page.goto(link);
    await page.waitForURL(/\/account\/login/);
    await signInAs(page, USERS.acmeClient);
    await page.waitForURL((u) => u.pathname === link);
    const card = page.getByTestId('confirm-access');
    await card.getByText(`${ADMIN.email} (Fleetgate) asks for access`, { exact: false }).waitFor();
    await screenshot(page, 'impersonation-confirm-access');
    await card.getByRole('button', { name: 'Grant access' }).click();
    await expect
      .poll(() => card.getByTestId('request-status').textContent())
      .toMatch(/^You granted access until /);
    const me = await pageApi<{ data: { impersonation_access_limit: string | null } }>(
      page,
      'GET',
      '/api/user',
    );
    expect(me.body.data.impersonation_access_limit).not.toBeNull();
    await context.close();
  });

  it('profile: the username changes; HTML in it is refused before anything is sent', async () => {
    const { context, page } = await newPage(browser, url);
    await page.goto('/account/login');
    await signInAs(page, USERS.acmeAdmin);
    await page.goto('/account/settings/profile');
    await page.getByTestId('profile-section').waitFor();
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/api/user/profile')) puts += 1;
    });
    await page.getByLabel('Username').fill('<b>Acme</b>');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Username contains forbidden characters').waitFor();
    expect(puts).toBe(0);
    await page.getByLabel('Username').fill('Acme Administrator');
    await page.getByLabel('Country').fill('no');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    await screenshot(page, 'account-profile');
    const me = await pageApi<{ data: { username: string; country_iso_code: string } }>(
      page,
      'GET',
      '/api/user',
    );
    expect(me.body.data).toMatchObject({ username: 'Acme Administrator', country_iso_code: 'NO' });

    // An avatar on another site: the console's policy lets the browser ask for it (a blocked
    // picture is never asked for, and the suite fails on the violation).
    const avatar = 'https://avatars.example.test/acme.png';
    await page.getByLabel('Avatar URL').fill(avatar);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully').last().waitFor();
    const asked = page.waitForRequest(avatar);
    await page.goto('/management/devices');
    await asked;
    await context.close();
  });
});
