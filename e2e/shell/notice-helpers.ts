import type { Page } from 'playwright-core';
import { pageApi } from '../support/api';

export type CreatedNotice = { id: number; message: string; enabled_at: string | null; status: string };

/** Creates a notice through the API from a page signed in as the super admin. */
export async function createNotice(
  page: Page,
  body: { type: string; message: string; enabled_at?: string | null },
): Promise<CreatedNotice> {
  const response = await pageApi<{ data: CreatedNotice }>(page, 'POST', '/api/admin/notices', body);
  if (response.status !== 200) throw new Error(`notice not created: ${response.status}`);
  return response.body.data;
}

/** The window with this id (minimised ones are in the DOM but hidden). */
export const windowById = (page: Page, id: string) =>
  page.locator(`[data-testid="window"][data-window-id="${id}"]`);

export const noticeRow = (page: Page, id: number) =>
  page.locator(`[data-testid="notice-row"][data-notice-id="${id}"]`);
