import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { companyId } from './support';

/** Waits for a value as a person would (the default poll gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

const WIDTHS = [1440, 390] as const;

let server: RunningServer;
let browser: Browser;
let acmeId: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  acmeId = await companyId(page, 'Acme');
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const suffix = () => Math.random().toString(36).slice(2, 8).toUpperCase();
const hexPair = () =>
  Math.floor(Math.random() * 256)
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();
const macOf = () => `00:1E:42:${hexPair()}:${hexPair()}:${hexPair()}`;

const approvedRow = (page: Page, serial: string) =>
  page.locator(`[data-testid="approved-row"][data-serial="${serial}"]`);

/** Nothing of the page sticks out past the viewport's right edge (the table scrolls in its own box). */
const pageWidth = (page: Page) =>
  page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));

describe('approved devices (product §2 auth.devices, §7 /devices/authorized)', () => {
  for (const width of WIDTHS) {
    it(`adds an approval, imports a CSV row by row and removes one at ${width} px`, async () => {
      const { context, page } = await signedInPage(browser, server.url, undefined, {
        viewport: { width, height: 900 },
      });
      const taken = `E2ETAKEN${suffix()}`;
      const added = `E2EADD${suffix()}`;
      const imported = `E2EIMP${suffix()}`;
      const approvedBefore = await pageApi(page, 'POST', '/api/devices/authorized', {
        serial: taken,
        mac: macOf(),
        company_id: acmeId,
      });
      expect(approvedBefore.status).toBe(200);

      await page.goto('/auth-devices');
      await approvedRow(page, taken).waitFor();

      // Add: the server's refusal shows under the serial field; the MAC is formatted as typed.
      await page.getByTestId('approved-add').click();
      const form = page.getByTestId('form-newApprovedDevice');
      await form.getByLabel('Serial number').fill(taken);
      const mac = form.getByLabel('MAC address');
      await mac.pressSequentially('001e42a1b2c3');
      await eventually(() => mac.inputValue()).toBe('00:1E:42:A1:B2:C3');
      await form.getByRole('combobox', { name: 'Company' }).click();
      await page.getByRole('option', { name: `Acme #${acmeId}` }).click();
      await form.getByRole('button', { name: 'Approve' }).click();
      const serialField = form.getByLabel('Serial number');
      await eventually(() => serialField.getAttribute('aria-invalid')).toBe('true');
      await form.getByText('This serial number is approved already').waitFor();
      await screenshot(page, `approved-devices-add-error-${width}`);

      await serialField.fill(added);
      await form.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved device created successfully').first().waitFor();
      await form.waitFor({ state: 'detached' });
      const row = approvedRow(page, added);
      await row.waitFor();
      expect(await row.getByTestId('approved-company').textContent()).toBe('Acme');
      expect(await row.getByTestId('approved-company').getAttribute('href')).toBe(`/companies/${acmeId}`);
      expect(await row.getByTestId('approved-state').getAttribute('data-state')).toBe('waiting');
      expect(await row.textContent()).toContain('00:1E:42:A1:B2:C3');

      // Import: one good row, one the server refuses; both stay listed with their outcome.
      await page.getByTestId('approved-import').click();
      const dialog = page.getByTestId('import-approved');
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'approvals.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `serial,mac,company_id\n${imported},${macOf()},${acmeId}\n${added},${macOf()},${acmeId}\n`,
        ),
      });
      await eventually(() => dialog.getByTestId('import-ready').textContent()).toBe('Rows to approve: 2');
      await dialog.getByTestId('import-start').click();
      await dialog.getByTestId('import-summary').waitFor();
      expect(await dialog.getByTestId('import-summary').textContent()).toContain('Rows approved: 1 of 2');
      const results = await dialog
        .getByTestId('import-result')
        .evaluateAll((trs) =>
          trs.map((tr) => [
            (tr as HTMLElement).dataset.line,
            (tr as HTMLElement).dataset.status,
            tr.lastElementChild?.textContent,
          ]),
        );
      expect(results).toEqual([
        ['2', 'approved', 'Approved'],
        ['3', 'failed', 'This serial number is approved already'],
      ]);
      await screenshot(page, `approved-devices-import-${width}`);
      expect(await pageWidth(page)).toEqual({ page: width, viewport: width });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await approvedRow(page, imported).waitFor();

      // Remove: the question names the serial; the row goes once confirmed.
      await approvedRow(page, added).getByTestId('approved-remove').click();
      expect(await page.getByTestId('confirm-message').textContent()).toBe(
        `Remove the approval of serial ${added}? A device with this serial can then be registered by any company.`,
      );
      await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByText('Approved device removed successfully').first().waitFor();
      await approvedRow(page, added).waitFor({ state: 'detached' });
      const left = await pageApi<{ data: { serial: string }[] }>(
        page,
        'GET',
        '/api/devices/authorized?limit=100',
      );
      expect(left.body.data.map((a) => a.serial)).toEqual(expect.arrayContaining([taken, imported]));
      expect(left.body.data.map((a) => a.serial)).not.toContain(added);

      // Search: the server looks in serial, MAC, company and note; only the match is left.
      await page.getByTestId('approved-search').fill(imported);
      await approvedRow(page, taken).waitFor({ state: 'detached' });
      await eventually(() => page.getByTestId('approved-row').count()).toBe(1);
      await approvedRow(page, imported).waitFor();

      await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      expect(await pageWidth(page)).toEqual({ page: width, viewport: width });
      await screenshot(page, `approved-devices-${width}`);
      await context.close();
    });
  }
});
