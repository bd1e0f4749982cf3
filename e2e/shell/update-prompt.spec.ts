import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
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

describe('update prompt (product §4, §7 General, §9)', () => {
  it('offers a reload 1 s after a newer version is reported; Later hides it and resets the stored time', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    const future = Math.floor(Date.now() / 1000) + 3600;
    await context.route('**/version.json', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ version: '5.15.0', timestamp: future }),
      }),
    );
    await page.evaluate(() => localStorage.setItem('versionTimestamp', '5'));
    const reloaded = Date.now();
    await page.reload();
    const prompt = page.getByRole('alertdialog', { name: 'A new version is available' });
    await prompt.waitFor();
    expect(Date.now() - reloaded).toBeGreaterThanOrEqual(1000);
    await screenshot(page, 'update-prompt');
    await prompt.getByRole('button', { name: 'Later' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('versionTimestamp'))).toBe('0');
    await context.close();
  });

  it('stays quiet when the reported version is not newer than the build', async () => {
    const { context, page } = await signedInPage(browser, server.url);
    const version = await page.evaluate(() => fetch('/version.json').then((r) => r.json()));
    expect(version.version).toBe('5.14.0');
    await page.reload();
    await page.getByTestId('page-frame').waitFor();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('alertdialog', { name: 'A new version is available' }).count()).toBe(0);
    await context.close();
  });
});
