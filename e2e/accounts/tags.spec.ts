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
let root: { context: BrowserContext; page: Page };
let acmeId: number;

const HOSTILE = '<script>window.hacked = 1</script><b>bold</b><img src=x onerror="window.hacked = 1">';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  root = await signedInPage(browser, server.url);
  const companies = await pageApi<{ data: { id: number; name: string }[] }>(
    root.page,
    'GET',
    '/api/companies?q=Acme',
  );
  acmeId = companies.body.data.find((c) => c.name === 'Acme')!.id;
});
afterAll(async () => {
  await root?.context.close();
  await browser?.close();
  await server?.dispose();
});

const suffix = () => Math.random().toString(36).slice(2, 7);
const tagRow = (page: Page, name: string) =>
  page.getByTestId('tag-row').filter({ has: page.getByText(name, { exact: true }) });

type TagData = { id: number; name: string };

async function createTagApi(page: Page, body: Record<string, unknown>): Promise<TagData> {
  const response = await pageApi<{ data: TagData }>(page, 'POST', '/api/tags', body);
  if (response.status !== 200) throw new Error(`tag not created: ${response.status}`);
  return response.body.data;
}

describe('tags (product §2 tags.main, management.tag_chart, company.tags; §3 newTag; §5)', () => {
  it('creates a tag in the dialog; markup in a name is refused, in a description it shows as text', async () => {
    const { page } = root;
    const name = `Warehouse ${suffix()}`;
    await page.goto('/tags');
    await page.getByTestId('tags-table').waitFor();
    await page.getByTestId('tag-create').click();
    const form = page.getByTestId('form-newTag');
    await form.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: `Acme #${acmeId}` }).click();
    await form.getByLabel('Name').fill('<script>alert(1)</script>');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Name contains forbidden characters').waitFor();

    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Description').fill(HOSTILE);
    await form.getByLabel(/^Colour/).fill('#ff8800');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Tag created successfully').first().waitFor();
    await form.waitFor({ state: 'detached' });

    const row = tagRow(page, name);
    await row.waitFor();
    await eventually(() => row.getByTestId('tag-description').textContent()).toBe(HOSTILE);
    expect(await row.locator('b, img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await screenshot(page, 'tags-table');
  });

  it('edits a tag and deletes it', async () => {
    const { page } = root;
    const tag = await createTagApi(page, { company_id: acmeId, name: `Edit me ${suffix()}` });
    await page.goto(`/tags?q=${encodeURIComponent(tag.name)}`);
    const row = tagRow(page, tag.name);
    await row.getByTestId('tag-edit').click();
    const form = page.getByTestId('form-editTag');
    await eventually(() => form.getByLabel('Name').inputValue()).toBe(tag.name);
    await form.getByLabel('Name').fill(`${tag.name} renamed`);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('tags-search').fill(`${tag.name} renamed`);
    const renamed = tagRow(page, `${tag.name} renamed`);
    await renamed.waitFor();

    await renamed.getByTestId('tag-delete').click();
    await page.getByTestId('confirm-message').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Tag removed successfully').first().waitFor();
    await renamed.waitFor({ state: 'detached' });
    expect((await pageApi(page, 'GET', `/api/tags/${tag.id}`)).status).toBe(404);
  });

  it('the tag chart counts the tagged devices by status and by model', async () => {
    const { page } = root;
    const tag = await createTagApi(page, { company_id: acmeId, name: `Chart ${suffix()}`, color: '#7048e8' });
    const ids: number[] = [];
    for (const [i, model] of ['RUTX11', 'RUTX11', 'RUT955'].entries()) {
      const n = Math.floor(Math.random() * 250);
      const response = await pageApi<{ data: { id: number } }>(page, 'POST', '/api/devices', {
        serial: `TAGE2E${suffix().toUpperCase()}${i}`,
        mac: `00:1E:42:${i.toString(16).padStart(2, '0')}:${n.toString(16).padStart(2, '0')}:${(i * 7).toString(16).padStart(2, '0')}`.toUpperCase(),
        company_id: acmeId,
        model,
      });
      expect(response.status).toBe(200);
      ids.push(response.body.data.id);
    }
    const tagged = await pageApi(page, 'POST', '/api/devices/tags', {
      action: 'add',
      tag_id: tag.id,
      device_id: ids,
    });
    expect(tagged.status).toBe(200);

    await page.goto(`/tags?q=${encodeURIComponent(tag.name)}`);
    await tagRow(page, tag.name).getByTestId('tag-name').click();
    await page.waitForURL(`**/tag/${tag.id}`);
    await eventually(() => page.getByTestId('tag-chart-total').textContent()).toBe('3');
    const bars = (testId: string) =>
      page
        .getByTestId(testId)
        .locator('[data-testid="chart-bar"]')
        .evaluateAll((gs) =>
          gs.map((g) => [g.getAttribute('data-key'), Number(g.getAttribute('data-value'))]),
        );
    // Newly registered devices wait for their first contact: Pending (product §4 status 2).
    expect(await bars('chart-status')).toEqual([
      ['offline', 0],
      ['online', 0],
      ['pending', 3],
      ['not_activated', 0],
    ]);
    expect(await bars('chart-model')).toEqual([
      ['RUTX11', 2],
      ['RUT955', 1],
    ]);
    await screenshot(page, 'tag-chart');

    // The same devices are listed on their company's devices tab (GET /devices?company_id=).
    await page.goto(`/companies/${acmeId}/devices`);
    const serials = await pageApi<{ data: { id: number }[] }>(
      page,
      'GET',
      `/api/devices?company_id=${acmeId}&limit=100&fields=id`,
    );
    await eventually(() => page.getByTestId('company-device-row').count()).toBe(serials.body.data.length);
    expect(serials.body.data.map((d) => d.id)).toEqual(expect.arrayContaining(ids));
  });

  it('the company tags tab lists the company’s tags; another company never sees them', async () => {
    const { page } = root;
    const tag = await createTagApi(page, { company_id: acmeId, name: `Company tab ${suffix()}` });
    await page.goto(`/companies/${acmeId}/tags`);
    await tagRow(page, tag.name).waitFor();
    await screenshot(page, 'company-tags');

    const beta = await signedInPage(browser, server.url, USERS.betaAdmin);
    await beta.page.goto(`/tags?q=${encodeURIComponent(tag.name)}`);
    await beta.page.getByTestId('tags-table-empty').waitFor();
    await beta.page.goto(`/tag/${tag.id}`);
    await eventually(() => beta.page.getByTestId('tag-missing').textContent()).toBe('Tag not found');
    await beta.context.close();
  });

  it('a guest reads the tags of its company without any way to change them', async () => {
    const tag = await createTagApi(root.page, { company_id: acmeId, name: `Guest view ${suffix()}` });
    const { context, page } = await signedInPage(browser, server.url, USERS.acmeGuest);
    await page.goto(`/tags?q=${encodeURIComponent(tag.name)}`);
    await tagRow(page, tag.name).waitFor();
    expect(await page.getByTestId('tag-create').count()).toBe(0);
    expect(await page.getByTestId('tag-edit').count()).toBe(0);
    expect(await page.getByTestId('tag-delete').count()).toBe(0);
    await context.close();
  });
});
