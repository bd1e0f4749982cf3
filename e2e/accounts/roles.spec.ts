import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageApi } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/** Waits for a value as a person would (the default poll gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

let server: RunningServer;
let browser: Browser;
let admin: { context: BrowserContext; page: Page };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  admin = await signedInPage(browser, server.url, USERS.acmeAdmin);
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
  await server?.dispose();
});

const suffix = () => Math.random().toString(36).slice(2, 7);
const customRow = (page: Page, name: string) =>
  page.locator(`[data-testid="custom-role-row"][data-role="${name}"]`);
const permissionBox = (page: Page, label: string) =>
  page.getByTestId('permission-picker').getByRole('checkbox', { name: label, exact: true });

describe('roles (product §2 users.roles, §3 Role, §6)', () => {
  it('shows the default roles read-only, each with its permissions in the role permissions dialog', async () => {
    const { page } = admin;
    await page.goto('/users/roles');
    await eventually(() => page.getByTestId('default-role-row').count()).toBe(DEFAULT_ROLES.length);
    expect(await page.getByTestId('default-roles').getByRole('button', { name: 'Edit role' }).count()).toBe(
      0,
    );
    const endUser = DEFAULT_ROLES.find((r) => r.name === 'end_user')!;
    const row = page.locator('[data-testid="default-role-row"][data-role="end_user"]');
    await row.getByTestId('role-permissions-open').click();
    const dialog = page.getByTestId('role-permissions');
    await eventually(() => dialog.locator('[data-permission]').count()).toBe(endUser.permissions.length);
    expect(await dialog.locator('[data-permission="view_companies"]').count()).toBe(0);
    await screenshot(page, 'roles-permissions-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('an admin creates a custom role with a subset of its permissions; what it lacks cannot be ticked', async () => {
    const { page } = admin;
    const name = `field_tech_${suffix()}`;
    await page.goto('/users/roles');
    await page.getByTestId('role-create').click();
    const editor = page.getByTestId('role-editor');
    await editor.getByTestId('role-title-input').fill(`Field technician ${name}`);
    await editor.getByTestId('role-name-input').fill(name);
    await permissionBox(page, 'View devices').check();
    await permissionBox(page, 'View tags').check();
    await permissionBox(page, 'Manage tags').check();
    // The admin does not hold super_admin or the system rights: shown, not selectable.
    for (const label of ['System administration', 'View mail logs', 'Manage global notices'])
      expect(await permissionBox(page, label).isDisabled()).toBe(true);
    await screenshot(page, 'roles-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Role created successfully').first().waitFor();
    await editor.waitFor({ state: 'detached' });

    const row = customRow(page, name);
    await eventually(() => row.getByTestId('role-permissions-open').textContent()).toBe('3 permissions');
    await row.getByTestId('role-permissions-open').click();
    const dialog = page.getByTestId('role-permissions');
    await eventually(() =>
      dialog
        .locator('[data-permission]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-permission')).sort()),
    ).toEqual(['manage_tags', 'view_devices', 'view_tags']);
    await screenshot(page, 'roles-page');
  });

  it('refuses escalation: a role above the author is refused by the server and nothing is created', async () => {
    const { page } = admin;
    const acme = (await pageApi<{ data: { company_id: number } }>(page, 'GET', '/api/user')).body.data
      .company_id;
    const name = `sneaky_${suffix()}`;
    const response = await pageApi<{ errors: { code: string; message: string }[] }>(
      page,
      'POST',
      '/api/roles',
      {
        company_id: acme,
        name,
        title: 'Sneaky',
        permissions: ['view_devices', 'super_admin', 'view_mail_logs'],
      },
    );
    expect(response.status).toBe(403);
    expect(response.body.errors[0]).toEqual({
      code: 'FORBIDDEN',
      message: 'You cannot grant permissions you do not hold: super_admin, view_mail_logs',
    });
    const roles = await pageApi<{ data: { name: string }[] }>(
      page,
      'GET',
      '/api/roles?type=custom&limit=100',
    );
    expect(roles.body.data.map((r) => r.name)).not.toContain(name);
  });

  it('the server’s refusal shows in the editor: a duplicate name is named under the field', async () => {
    const { page } = admin;
    const name = `dup_${suffix()}`;
    const acme = (await pageApi<{ data: { company_id: number } }>(page, 'GET', '/api/user')).body.data
      .company_id;
    await pageApi(page, 'POST', '/api/roles', { company_id: acme, name, title: 'First', permissions: [] });
    await page.goto('/users/roles');
    await page.getByTestId('role-create').click();
    const editor = page.getByTestId('role-editor');
    await editor.getByTestId('role-title-input').fill('Second');
    await editor.getByTestId('role-name-input').fill(name);
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByText('A role with this name already exists').waitFor();
    await editor.getByTestId('role-name-input').fill(`${name}_2`);
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await customRow(page, `${name}_2`).waitFor();
  });

  it('edits and deletes a custom role', async () => {
    const { page } = admin;
    const name = `temp_${suffix()}`;
    const acme = (await pageApi<{ data: { company_id: number } }>(page, 'GET', '/api/user')).body.data
      .company_id;
    await pageApi(page, 'POST', '/api/roles', {
      company_id: acme,
      name,
      title: 'Temporary',
      permissions: ['view_devices'],
    });
    await page.goto('/users/roles');
    const row = customRow(page, name);
    await row.getByTestId('role-edit').click();
    const editor = page.getByTestId('role-editor');
    await eventually(() => permissionBox(page, 'View devices').isChecked()).toBe(true);
    await permissionBox(page, 'View tags').check();
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await eventually(() => row.getByTestId('role-permissions-open').textContent()).toBe('2 permissions');

    await row.getByTestId('role-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('an end client sees the roles but has no role actions', async () => {
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeClient);
    await page.goto('/users/roles');
    await eventually(() => page.getByTestId('default-role-row').count()).toBe(DEFAULT_ROLES.length);
    expect(await page.getByTestId('role-create').count()).toBe(0);
    await context.close();
  });
});
