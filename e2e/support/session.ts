import type { Page } from 'playwright-core';
import { USER_PASSWORD } from './fixtures';
import { ADMIN } from './server';

/** Signs in through the real page, as a person would. */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  if (!page.url().includes('/account/login')) await page.goto('/account/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/account'));
}

/** Signs in as one of the fixture users. */
export function signInAs(page: Page, user: { email: string }): Promise<void> {
  return signIn(page, user.email, USER_PASSWORD);
}

/** A fresh browser context signed in (as the super admin unless a fixture user is given). */
export async function signedInPage(
  browser: import('playwright-core').Browser,
  url: string,
  user?: { email: string },
  options: Parameters<import('playwright-core').Browser['newContext']>[0] = {},
) {
  const { newPage } = await import('./browser');
  const { context, page } = await newPage(browser, url, options);
  await page.goto('/account/login');
  if (user) await signInAs(page, user);
  else await signIn(page);
  return { context, page };
}
