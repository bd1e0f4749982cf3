import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { USER_PASSWORD, USERS } from '../support/fixtures';
import { REPO_ROOT, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** One namespace of one language, as the console bundles it. */
function bundle(language: string, namespace: string): Record<string, string> {
  const file = path.join(REPO_ROOT, 'apps/web/src/i18n/locales', language, `${namespace}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

describe('first visit in the browser language (product §2 Header widgets 3: languages from browser and country)', () => {
  for (const [locale, language] of [
    ['nb-NO', 'nb'],
    ['uk-UA', 'uk'],
    ['en-US', 'en'],
  ] as const) {
    it(`a browser in ${locale} gets the console in ${language}`, async () => {
      const account = bundle(language, 'account');
      const widget = bundle(language, 'account-widget');
      const { context, page } = await newPage(browser, server.url, { locale });
      await page.goto('/');
      await page.waitForURL(/\/account\/login/);
      await page
        .getByRole('heading', { name: account['login.title']!.replace('{{app}}', 'Fleetgate') })
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);

      await page.getByLabel(account['login.email']!).fill(USERS.acmeAdmin.email);
      await page.getByLabel(account['login.password']!, { exact: true }).fill(USER_PASSWORD);
      await page.getByRole('button', { name: account['login.submit'] }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/account'));
      await page.getByTestId('account-widget').click();
      await page.getByRole('menuitem', { name: widget['menu.timezone'] }).waitFor();
      await page.getByRole('menuitem', { name: widget['menu.changelog'] }).waitFor();
      // Nothing was chosen, so nothing is stored: the next visit asks the browser again.
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBeNull();
      await context.close();
    });
  }
});

describe('further languages: translation files an operator drops into DATA_DIR/locales', () => {
  it('a dropped file shows in the Languages menu without a rebuild; choosing it translates what it has, English the rest', async () => {
    const folder = path.join(server.dataDir, 'locales', 'de');
    mkdirSync(folder, { recursive: true });
    const english = bundle('en', 'account-widget');
    writeFileSync(
      path.join(folder, 'account-widget.json'),
      JSON.stringify({ 'menu.timezone': 'Systemzeitzone' }),
    );
    const { context, page } = await newPage(browser, server.url, { locale: 'en-US' });
    await page.goto('/account/login');
    await page.getByLabel('Email').fill(USERS.acmeAdmin.email);
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/account'));

    // The submenu is drawn again when the server's further languages arrive, which can take the
    // item from under a click: open it until the click lands.
    await expect
      .poll(async () => {
        if (!(await page.getByTestId('menu-languages').isVisible()))
          await page.getByTestId('account-widget').click();
        await page.getByTestId('menu-languages').hover();
        return page
          .getByRole('menuitem', { name: 'Deutsch' })
          .click({ timeout: 2_000 })
          .then(
            () => true,
            () => false,
          );
      })
      .toBe(true);
    await page.waitForFunction(() => document.documentElement.lang === 'de', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de');
    await page.getByTestId('account-widget').click();
    await page.getByRole('menuitem', { name: 'Systemzeitzone' }).waitFor();
    // A key the file lacks shows in English.
    await page.getByRole('menuitem', { name: new RegExp(english['menu.changelog']!) }).waitFor();
    await context.close();
  });
});
