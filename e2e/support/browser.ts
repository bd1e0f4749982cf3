import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './chromium';
import { REPO_ROOT } from './server';

export const SCREENSHOTS = path.join(REPO_ROOT, 'e2e/screenshots');

/** A Content-Security-Policy violation a page reported (its `securitypolicyviolation` event). */
export type CspViolation = {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
  line: number;
  page: string;
};

const violations: CspViolation[] = [];
const watched = new Set<BrowserContext>();

/**
 * Returns and forgets the violations reported so far. The shared e2e setup (csp-guard.ts)
 * fails the test during which any were reported; a spec that provokes one on purpose takes
 * it first, to check it.
 */
export async function takeCspViolations(): Promise<CspViolation[]> {
  // A page's report travels on the same connection as an evaluation's answer, before it:
  // one round trip to every open page brings in what is still under way.
  const pages = [...watched].flatMap((context) => context.pages());
  await Promise.all(
    pages.map((page) =>
      Promise.race([
        page.evaluate(() => 0).catch(() => 0),
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]),
    ),
  );
  return violations.splice(0);
}

/** Every page of the context reports the policy violations it meets (docs/security.md). */
async function watchCsp(context: BrowserContext): Promise<void> {
  watched.add(context);
  context.on('close', () => watched.delete(context));
  await context.exposeBinding('__fgCspViolation', (_source, violation: CspViolation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = Reflect.get(window, '__fgCspViolation') as ((v: CspViolation) => void) | undefined;
      report?.({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        source: event.sourceFile,
        line: event.lineNumber,
        page: document.location.href,
      });
    });
  });
}

/**
 * Debian's Chromium, headless, with the flags a closed network needs. Every context it opens
 * (`newContext`, `newPage`) watches for Content-Security-Policy violations.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  return browser;
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 850 }, ...options });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page };
}

/** Saves a screenshot under e2e/screenshots/ (not committed) to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
