import { MAX_MINIMIZED_WINDOWS } from '@fleetgate/shared/constants';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';
import { type CreatedNotice, createNotice, noticeRow, windowById } from './notice-helpers';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const notices: CreatedNotice[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  ({ context, page } = await signedInPage(browser, server.url));
  // One more than may be minimised, each with its own JSON viewer window.
  for (let i = 1; i <= MAX_MINIMIZED_WINDOWS + 1; i++)
    notices.push(await createNotice(page, { type: 'info', message: `Window notice ${i}` }));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.dispose();
});

/** The notices administration with no window open (a fresh load resets the window manager). */
async function freshAdminPage() {
  await page.goto('/notices');
  await noticeRow(page, notices[0]!.id).waitFor();
}

const jsonId = (notice: CreatedNotice) => `notice-json:${notice.id}`;

async function openJson(notice: CreatedNotice) {
  await noticeRow(page, notice.id).getByRole('button', { name: 'View JSON' }).click();
  const win = windowById(page, jsonId(notice));
  await win.waitFor();
  return win;
}

const tray = () => page.getByTestId('window-tray');
const trayItems = () => page.getByTestId('tray-item');

describe('dialog windows (product §2 Dialog system, §4 Modal, §8, §9)', () => {
  it('drags a window by its title bar', async () => {
    await freshAdminPage();
    const win = await openJson(notices[0]!);
    await expect.poll(() => win.getByTestId('json-viewer').textContent()).toContain('Window notice 1');
    const before = (await win.boundingBox())!;
    const bar = (await win.getByTestId('window-title').boundingBox())!;
    const start = { x: bar.x + 20, y: bar.y + bar.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 60, start.y + 40, { steps: 5 });
    await page.mouse.move(start.x + 120, start.y + 90, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await win.boundingBox())!.x - before.x)).toBe(120);
    expect(Math.round((await win.boundingBox())!.y - before.y)).toBe(90);
    await screenshot(page, 'windows-dragged');
    // Dragging the body does not move the window.
    const moved = (await win.boundingBox())!;
    const body = (await win.getByTestId('json-viewer').boundingBox())!;
    await page.mouse.move(body.x + 10, body.y + 10);
    await page.mouse.down();
    await page.mouse.move(body.x + 200, body.y + 100, { steps: 5 });
    await page.mouse.up();
    expect((await win.boundingBox())!.x).toBe(moved.x);
  });

  it('goes full screen and back', async () => {
    await freshAdminPage();
    const win = await openJson(notices[0]!);
    const before = (await win.boundingBox())!;
    await win.getByRole('button', { name: 'Full screen' }).click();
    const viewport = page.viewportSize()!;
    await expect.poll(async () => (await win.boundingBox())!.width).toBe(viewport.width);
    expect((await win.boundingBox())!.height).toBe(viewport.height);
    await screenshot(page, 'windows-full-screen');
    await win.getByRole('button', { name: 'Exit full screen' }).click();
    await expect.poll(async () => (await win.boundingBox())!.width).toBe(before.width);
    expect((await win.boundingBox())!.x).toBe(before.x);
  });

  it('minimises to the tray and restores from it', async () => {
    await freshAdminPage();
    const win = await openJson(notices[0]!);
    await win.getByRole('button', { name: 'Minimise' }).click();
    await win.waitFor({ state: 'hidden' });
    await tray().waitFor();
    await expect.poll(() => trayItems().count()).toBe(1);
    expect(await trayItems().first().textContent()).toContain(`Notice #${notices[0]!.id}`);
    await screenshot(page, 'windows-tray');
    await trayItems().first().getByRole('button', { name: 'Restore window' }).click();
    await win.waitFor();
    await tray().waitFor({ state: 'hidden' });
    await expect.poll(() => win.getByTestId('json-viewer').textContent()).toContain('Window notice 1');
  });

  it('opening a window whose id is open replaces it', async () => {
    await freshAdminPage();
    const notice = notices[1]!;
    const formId = `form:notice:${notice.id}`;
    await noticeRow(page, notice.id).getByRole('button', { name: 'Edit' }).click();
    const win = windowById(page, formId);
    const message = win.getByLabel('Message');
    await expect.poll(() => message.inputValue()).toBe('Window notice 2');
    await message.fill('An unsaved draft');
    await win.getByRole('button', { name: 'Minimise' }).click();
    await tray().waitFor();
    // The same record's form again: the same id, so it takes the minimised one's place.
    await noticeRow(page, notice.id).getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => windowById(page, formId).count()).toBe(1);
    await windowById(page, formId).waitFor();
    await expect
      .poll(() => windowById(page, formId).getByLabel('Message').inputValue())
      .toBe('Window notice 2');
    expect(await trayItems().count()).toBe(0);
  });

  it('Escape closes the topmost window only', async () => {
    await freshAdminPage();
    const notice = notices[2]!;
    await noticeRow(page, notice.id).getByRole('button', { name: 'Edit' }).click();
    const form = windowById(page, `form:notice:${notice.id}`);
    await expect.poll(() => form.getByLabel('Message').inputValue()).toBe('Window notice 3');
    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = windowById(page, 'notice-preview');
    await expect.poll(() => preview.getByTestId('notice-preview').textContent()).toBe('Window notice 3');
    await screenshot(page, 'windows-stacked');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await form.waitFor();
    expect(await form.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await page.getByTestId('window').count()).toBe(0);
  });

  it('closing the last open window leaves the minimised ones in the tray', async () => {
    await freshAdminPage();
    const first = await openJson(notices[0]!);
    await first.getByRole('button', { name: 'Minimise' }).click();
    await tray().waitFor();
    const second = await openJson(notices[1]!);
    // While a window is open the tray stays out of the way.
    await tray().waitFor({ state: 'hidden' });
    await second.getByRole('button', { name: 'Close' }).click();
    await second.waitFor({ state: 'detached' });
    await tray().waitFor();
    await expect.poll(() => trayItems().count()).toBe(1);
    expect(await trayItems().first().getAttribute('data-window-id')).toBe(jsonId(notices[0]!));
  });

  it(`refuses to minimise a ${MAX_MINIMIZED_WINDOWS + 1}th window with the message of product §8`, async () => {
    await freshAdminPage();
    for (const notice of notices.slice(0, MAX_MINIMIZED_WINDOWS)) {
      const win = await openJson(notice);
      await win.getByRole('button', { name: 'Minimise' }).click();
      await win.waitFor({ state: 'hidden' });
    }
    await expect.poll(() => trayItems().count()).toBe(MAX_MINIMIZED_WINDOWS);
    const last = await openJson(notices[MAX_MINIMIZED_WINDOWS]!);
    await last.getByRole('button', { name: 'Minimise' }).click();
    await page.getByText('You can not minimize more than 5 windows').waitFor();
    expect(await last.isVisible()).toBe(true);
    await screenshot(page, 'windows-too-many');
    await last.getByRole('button', { name: 'Close' }).click();
    await tray().waitFor();
    expect(await trayItems().count()).toBe(MAX_MINIMIZED_WINDOWS);
  });

  it('Escape in an open drop-down closes only the list: the window keeps its input; the next Escape closes it', async () => {
    await page.goto('/users');
    await page.getByTestId('users-table').waitFor();
    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite user' });
    const form = dialog.getByTestId('form-newUser');
    await form.getByLabel('E-mail').fill('kept.input@example.test');
    const company = form.getByRole('combobox', { name: 'Company' });
    await company.click();
    await company.fill('Acme');
    await page.getByRole('option', { name: /^Acme #\d+$/ }).click();
    const role = form.getByRole('combobox', { name: 'Role' });
    const options = page.getByRole('option', { name: 'End Client', exact: true });

    // Invite user → Role list → Esc: the list closes, nothing else.
    await role.click();
    await options.waitFor();
    await page.keyboard.press('Escape');
    await options.waitFor({ state: 'detached' });
    await expect.poll(() => role.getAttribute('aria-expanded')).toBe('false');
    expect(await dialog.count()).toBe(1);
    expect(await form.getByLabel('E-mail').inputValue()).toBe('kept.input@example.test');
    expect(await company.inputValue()).toMatch(/^Acme #\d+$/);
    await screenshot(page, 'windows-escape-closes-list');

    // The same for the searchable company list, opened from the keyboard.
    await company.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: /^Acme #\d+$/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('option', { name: /^Acme #\d+$/ }).waitFor({ state: 'detached' });
    expect(await dialog.count()).toBe(1);
    expect(await form.getByLabel('E-mail').inputValue()).toBe('kept.input@example.test');

    // With no list open, Escape closes the window (product §2).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
