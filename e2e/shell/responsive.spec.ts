import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Simulator } from '../devices/support';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import {
  ACCOUNT_PAGES,
  BUILT,
  DEVICES,
  type FleetIds,
  LONG_NAME,
  settled,
  setUpDemoFleet,
  walkRoutes,
} from '../support/routes-walk';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Every built screen at a desktop and a phone width (product §2 Layout): nothing may stick out
 * past the viewport's right edge, and text that matters is never cut (the device status
 * badge shows its whole word; a name cut short carries its full text on hover). The fixtures
 * look like the demo (support/routes-walk.ts), one company renamed to 120 characters.
 */

const WIDTHS = [1440, 390] as const;
const HEIGHT = 900;

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let ids: FleetIds;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  ({ ids, sim } = await setUpDemoFleet(browser, server));
}, 120_000);
afterAll(async () => {
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

type Problems = { overflow: string[]; clipped: string[]; pageWidth: number; viewport: number };

/**
 * What sticks out past the viewport's right edge (not inside a container that scrolls
 * sideways), and text cut short: the status badge must never be, anything else only with
 * its full text in a title to read on hover.
 */
function findProblems(page: Page): Promise<Problems> {
  return page.evaluate(() => {
    const viewport = window.innerWidth;
    const edge = document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const testId = el.getAttribute('data-testid');
      const cls = [...el.classList].find((c) => c.startsWith('mantine-')) ?? el.classList[0];
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const right = Math.round(el.getBoundingClientRect().right);
      return `<${el.tagName.toLowerCase()}${testId ? ` data-testid="${testId}"` : ''}${cls ? ` .${cls}` : ''}> "${text}" right=${right}`;
    };
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      return style.visibility !== 'hidden' && style.display !== 'none' && rect.width > 0 && rect.height > 0;
    };
    /**
     * An ancestor that clips or scrolls sideways and ends inside the viewport holds what
     * sticks out of it: scrolled to (a wide table) or cut on purpose (a map's tiles). Text
     * cut short is the second check's business.
     */
    const contained = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= edge + 1)
          return true;
      }
      return false;
    };
    // An SVG is judged as a whole, not by its paths.
    const judged = (el: Element) => !(el instanceof SVGElement) || el instanceof SVGSVGElement;
    const out = (el: Element) =>
      judged(el) && visible(el) && el.getBoundingClientRect().right > edge + 1 && !contained(el);
    /**
     * A line of text cut by its own box (an ellipsis, hidden overflow): measured on the text
     * itself, since an ellipsis shows for a fraction of a pixel that scrollWidth rounds away.
     * Prose clamped to a few lines (a description's preview) is a choice, not a defect.
     */
    const cut = (el: Element) => {
      if (el instanceof HTMLInputElement || !visible(el)) return false;
      // Text for screen readers only (a one-pixel clipped box) is not meant to be seen.
      const box = el.getBoundingClientRect();
      if (box.width <= 1 && box.height <= 1) return false;
      if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()))
        return false;
      const style = getComputedStyle(el);
      if (style.webkitLineClamp !== 'none') return false;
      if (style.overflowX !== 'hidden' && style.overflowX !== 'clip') return false;
      const range = document.createRange();
      range.selectNodeContents(el);
      const room =
        el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return range.getBoundingClientRect().width > room + 0.5;
    };
    const overflow: string[] = [];
    const clipped: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      // The innermost offenders are listed: what actually sticks out, not every box around it.
      if (out(el) && ![...el.children].some(out)) overflow.push(describe(el));
      if (cut(el)) {
        const status = el.closest('[data-testid="device-status"]');
        const titled = el.closest('[title]');
        if (status || !titled || !titled.getAttribute('title')?.trim()) clipped.push(describe(el));
      }
    }
    return { overflow, clipped, pageWidth: document.documentElement.scrollWidth, viewport };
  });
}

/** What is wrong on a page, in words that list the offending elements; null when nothing is. */
function describeProblems(problems: Problems, where: string): string | null {
  const messages: string[] = [];
  if (problems.pageWidth > problems.viewport)
    messages.push(`the page is ${problems.pageWidth} px wide in a ${problems.viewport} px viewport`);
  if (problems.overflow.length)
    messages.push(`past the right edge:\n  ${problems.overflow.slice(0, 15).join('\n  ')}`);
  if (problems.clipped.length)
    messages.push(`text cut short:\n  ${problems.clipped.slice(0, 15).join('\n  ')}`);
  return messages.length ? `${where}\n${messages.join('\n')}` : null;
}

/** Fails with the offending elements listed. */
function expectFits(problems: Problems, where: string): void {
  const message = describeProblems(problems, where);
  expect(message === null, message ?? '').toBe(true);
}

/** Screens whose pictures are kept at both widths whether or not anything failed. */
const LOOKED_AT = new Set([
  'management.devices',
  'device.activity',
  'device.metrics.dynamic',
  'users.companies',
  'company.devices',
  'users.table',
]);

async function walk(page: Page, width: number) {
  await page.setViewportSize({ width, height: HEIGHT });
  return walkRoutes(page, ids, `at ${width} px`, async ({ route, name, landed }) => {
    const problem = describeProblems(await findProblems(page), `${route.name} (${landed}) at ${width} px`);
    // Pictures of what failed, and of the screens an operator lives in, to look at.
    if (problem || LOOKED_AT.has(name)) await screenshot(page, `responsive-${width}-${route.name}`);
    return problem;
  });
}

describe('every screen at 1440 px and 390 px (product §2 Layout)', () => {
  for (const width of WIDTHS) {
    it(`nothing sticks out or is cut at ${width} px, on every route of the table`, async () => {
      const { context, page } = await signedInPage(browser, server.url, undefined, {
        viewport: { width, height: HEIGHT },
        reducedMotion: 'reduce',
      });
      await page.getByTestId('page-frame').waitFor();
      const { failures, drawn } = await walk(page, width);
      expect(failures.length, failures.join('\n\n')).toBe(0);
      // The walk reached every built screen and each drew itself, not a placeholder.
      expect(BUILT.filter((name) => !drawn.has(name))).toEqual([]);
      await context.close();
    }, 240_000);

    it(`the account settings pages fit at ${width} px`, async () => {
      const { context, page } = await signedInPage(browser, server.url, undefined, {
        viewport: { width, height: HEIGHT },
        reducedMotion: 'reduce',
      });
      const failures: string[] = [];
      for (const section of ACCOUNT_PAGES) {
        await page.goto(`/account/settings/${section}`);
        await settled(page);
        await screenshot(page, `responsive-${width}-account-${section}`);
        const problem = describeProblems(
          await findProblems(page),
          `/account/settings/${section} at ${width} px`,
        );
        if (problem) failures.push(problem);
      }
      expect(failures.length, failures.join('\n\n')).toBe(0);
      await context.close();
    });
  }
});

describe('long names (a company renamed to 120 characters)', () => {
  for (const width of WIDTHS) {
    it(`wrap or are cut with the full name on hover, and push no button off screen at ${width} px`, async () => {
      const { context, page } = await signedInPage(browser, server.url, USERS.acmeAdmin, {
        viewport: { width, height: HEIGHT },
        reducedMotion: 'reduce',
      });
      const inView = async (testId: string) => {
        const box = (await page.getByTestId(testId).first().boundingBox())!;
        return box.x >= 0 && box.x + box.width <= width;
      };
      /** Shows the whole name, or is cut and names it in full in a title to hover. */
      const readable = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el, name) => {
            const whole = (el.textContent ?? '').includes(name) && el.scrollWidth <= el.clientWidth + 1;
            const titled = el.closest('[title]')?.getAttribute('title')?.includes(name) ?? false;
            return whole || titled;
          }, LONG_NAME);

      // The company page: the title wraps, the header buttons stay on screen, the breadcrumb names it.
      await page.goto(`/companies/${ids.company}/devices`);
      const frame = page.getByTestId('page-frame');
      await frame.getByRole('heading', { name: LONG_NAME }).waitFor();
      expect(await inView('company-manage')).toBe(true);
      expect(await readable('[data-testid="breadcrumb-company.info"]')).toBe(true);
      await screenshot(page, `long-name-company-${width}`);
      expectFits(await findProblems(page), `company page at ${width} px`);

      // The device page: its company link.
      await page.goto(`/devices/${ids.device}/activity`);
      await page.getByTestId('device-header').waitFor();
      expect(await readable('[data-testid="device-company"]')).toBe(true);
      expect(await inView('device-actions')).toBe(true);
      await screenshot(page, `long-name-device-${width}`);
      expectFits(await findProblems(page), `device page at ${width} px`);

      // The devices table's company cell.
      await page.goto('/management/devices');
      await page.getByTestId('device-row').first().waitFor();
      expect(await readable('[data-testid="device-row"] [data-column="company"] a')).toBe(true);
      expect(await inView('add-device-menu')).toBe(true);
      expectFits(await findProblems(page), `devices table at ${width} px`);

      // The account widget: its company line.
      await page.getByTestId('account-widget').click();
      await page.getByTestId('account-menu').waitFor();
      expect(await readable('[data-testid="account-company"]')).toBe(true);
      await page.waitForTimeout(300);
      await screenshot(page, `long-name-account-${width}`);
      const widget = await findProblems(page);
      expect(widget.overflow, widget.overflow.join('\n')).toEqual([]);
      expect(widget.clipped.filter((line) => line.includes('Acme Intercontinental'))).toEqual([]);
      await context.close();
    });
  }
});

describe('the devices filter row (a chosen model, then more filters)', () => {
  for (const width of WIDTHS) {
    it(`shows the whole model name in its chip and keeps its height as filters are added at ${width} px`, async () => {
      const { context, page } = await signedInPage(browser, server.url, undefined, {
        viewport: { width, height: HEIGHT },
        reducedMotion: 'reduce',
      });
      await page.goto('/management/devices');
      await page.getByTestId('device-row').first().waitFor();
      const row = page.getByTestId('device-filters');
      const height = async () => Math.round((await row.boundingBox())!.height);
      const empty = await height();
      const heights: Record<string, number> = {};
      const choose = async (field: string, option: RegExp | string) => {
        await page.getByTestId(field).click();
        await page.getByRole('option', { name: option }).first().click();
        await page.keyboard.press('Escape');
        heights[field] = await height();
      };

      const model = DEVICES[0]!.model;
      await choose('filter-model', new RegExp(`^${model}\\b`));
      // The chip: the model's whole name, not cut, and inside its field where it can be read.
      const modelField = page.locator('.mantine-MultiSelect-root', { has: page.getByTestId('filter-model') });
      await modelField.locator('.mantine-Pill-root').waitFor();
      const chip = await modelField.evaluate((field) => {
        const box = field.querySelector('.mantine-MultiSelect-input')!.getBoundingClientRect();
        const pill = field.querySelector('.mantine-Pill-root')!;
        const label = pill.querySelector('.mantine-Pill-label') ?? pill;
        const rect = pill.getBoundingClientRect();
        return {
          text: label.textContent,
          cut: label.scrollWidth > label.clientWidth + 1,
          inside: rect.left >= box.left && rect.right <= box.right,
        };
      });
      await screenshot(page, `device-filters-model-${width}`);
      expect(chip).toEqual({ text: model, cut: false, inside: true });

      await choose('filter-status', 'Online');
      await choose('filter-company', LONG_NAME);
      await choose('filter-tag', 'Cold chain');
      await choose('filter-model', new RegExp(`^${DEVICES[1]!.model}\\b`));
      const version = /(\d+\.\d+)\.\d+$/.exec(DEVICES[0]!.firmware)![1]!;
      await page.getByTestId('filter-firmware').fill(version);
      await page.getByTestId('filter-firmware').press('Enter');
      await page.keyboard.press('Escape');
      heights['filter-firmware'] = await height();
      await screenshot(page, `device-filters-all-${width}`);
      expect(heights).toEqual({
        'filter-model': empty,
        'filter-status': empty,
        'filter-company': empty,
        'filter-tag': empty,
        'filter-firmware': empty,
      });
      await context.close();
    });
  }
});
