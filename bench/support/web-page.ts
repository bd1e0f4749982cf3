import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page, type Response } from 'playwright-core';
import { CHROMIUM_LAUNCH } from '../../e2e/support/chromium';
import type { BenchCookie } from './web-server';

/**
 * The conditions every page load runs under: Chrome DevTools' 'Fast 4G' preset (9 Mbit/s
 * down and 1.5 Mbit/s up, each × 0.9 for packet overhead; 60 ms round trip × 2.75 for the
 * request latency DevTools applies) and the CPU slowed four times, a mid-range phone.
 */
export const CONDITIONS = {
  cpuSlowdown: 4,
  downloadBitsPerSecond: 9_000_000 * 0.9,
  uploadBitsPerSecond: 1_500_000 * 0.9,
  latencyMs: 60 * 2.75,
} as const;

export function conditionsLine(): string {
  const c = CONDITIONS;
  return (
    `Fast 4G (${(c.downloadBitsPerSecond / 1e6).toFixed(1)} Mbit/s down, ${(c.uploadBitsPerSecond / 1e6).toFixed(2)} Mbit/s up, ` +
    `${c.latencyMs} ms latency), CPU ${c.cpuSlowdown}× slower, cold cache`
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}

/** One JavaScript or CSS file a page loaded. */
export type LoadedFile = { url: string; raw: number; gzip: number; transferred: number };

export type PageLoad = {
  files: LoadedFile[];
  /** Largest contentful paint, ms after navigation start. */
  lcpMs: number;
  /** Long tasks' time beyond 50 ms, from first contentful paint until the page settled. */
  tbtMs: number;
  /** Whatever `measure` answered, read once the page settled. */
  extra: unknown;
  /** When the rows were on the screen, ms after navigation start (0 without `rows`). */
  rowsAtMs: number;
  /** With `next`: ms from the answer of the next rows' request to those rows drawn. */
  nextMs: number | undefined;
};

/**
 * Runs in the page before its own scripts (the bench's tsconfig has no DOM types, hence a
 * script's text): records paints and long tasks as they happen, and, when `__benchRows`
 * names a selector and a count, the moment that many rows are in the document and the
 * frame after it has been drawn.
 */
const PAGE_PROBE = `(() => {
  const probe = { lcp: 0, fcp: 0, longTasks: [], rowsAt: 0 };
  window.__bench = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') probe.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const rows = window.__benchRows;
  if (!rows) return;
  const observer = new MutationObserver(() => {
    if (document.querySelectorAll(rows.selector).length < rows.count) return;
    observer.disconnect();
    // The frame after the rows went in: their layout and paint are done by then.
    requestAnimationFrame(() => setTimeout(() => { probe.rowsAt = performance.now(); }, 0));
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

/**
 * Watches for `count` rows none of which was in the document when it started (by their
 * `data-device-id`), and notes the moment they and the frame after them are drawn.
 */
const NEXT_ROWS_PROBE = (rows: { selector: string; count: number }) => `(() => {
  const shown = new Set([...document.querySelectorAll(${JSON.stringify(rows.selector)})].map((row) => row.dataset.deviceId));
  window.__benchNextAt = 0;
  const observer = new MutationObserver(() => {
    const now = [...document.querySelectorAll(${JSON.stringify(rows.selector)})];
    if (now.length < ${rows.count} || now.some((row) => shown.has(row.dataset.deviceId))) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__benchNextAt = performance.now(); }, 0));
  });
  observer.observe(document, { childList: true, subtree: true });
})()`;

/**
 * Time from the answer of the last request whose URL contains `part` to the rows drawn
 * (NaN when either is missing); `mark` names the moment they were drawn.
 */
export function rowsAfterScript(part: string, mark = '__bench.rowsAt'): string {
  return `(() => {
    const at = window.${mark};
    const answers = performance.getEntriesByType('resource')
      .filter((e) => e.name.includes(${JSON.stringify(part)}) && e.responseEnd <= at);
    const last = answers[answers.length - 1];
    return at && last ? at - last.responseEnd : NaN;
  })()`;
}

type Probe = { lcp: number; fcp: number; longTasks: { start: number; duration: number }[]; rowsAt: number };

/** Waits until no request (web sockets aside) has been under way for `quietMs`. */
async function settle(page: Page, inFlight: () => number, quietMs = 1000, capMs = 60_000): Promise<void> {
  const started = Date.now();
  let quietSince = Date.now();
  while (Date.now() - started < capMs) {
    if (inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await page.waitForTimeout(100);
  }
}

export type LoadOptions = {
  url: string;
  cookies?: BenchCookie[];
  /** Resolves when the screen shows what it is for (its table rows, its form). */
  ready(page: Page): Promise<void>;
  /** Rows whose arrival the probe times (selector and count). */
  rows?: { selector: string; count: number };
  /** An expression evaluated in the page once it settled (its value is `extra`). */
  measure?: string;
  /**
   * Once the page settled: `go` asks for another set of rows (the next page), and the time
   * from the answer of the last request whose URL holds `part` to `rows.count` rows, none
   * of them shown before (by `data-device-id`), in the document and drawn is `nextMs`.
   */
  next?: { go(page: Page): Promise<void>; part: string };
  throttle: boolean;
};

/** Loads one page in a fresh context (nothing cached) and measures it. */
export async function loadPage(browser: Browser, options: LoadOptions): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    if (options.cookies?.length) await context.addCookies(options.cookies);
    if (options.rows)
      await context.addInitScript({ content: `window.__benchRows = ${JSON.stringify(options.rows)};` });
    await context.addInitScript({ content: PAGE_PROBE });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    if (options.throttle) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CONDITIONS.cpuSlowdown });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: CONDITIONS.latencyMs,
        downloadThroughput: CONDITIONS.downloadBitsPerSecond / 8,
        uploadThroughput: CONDITIONS.uploadBitsPerSecond / 8,
      });
    }
    const responses: Response[] = [];
    let inFlight = 0;
    page.on('request', () => {
      inFlight += 1;
    });
    const done = () => {
      inFlight = Math.max(0, inFlight - 1);
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type === 'script' || type === 'stylesheet') responses.push(response);
    });
    await page.goto(options.url, { waitUntil: 'commit' });
    await options.ready(page);
    await settle(page, () => inFlight);
    const probe = (await page.evaluate('window.__bench')) as Probe;
    const files = await Promise.all(
      responses.map(async (response) => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        return {
          url: new URL(response.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          transferred: sizes.responseBodySize + sizes.responseHeadersSize,
        };
      }),
    );
    const tbtMs = probe.longTasks
      .filter((task) => task.start + task.duration > probe.fcp)
      .reduce((sum, task) => {
        const from = Math.max(task.start, probe.fcp);
        return sum + Math.max(0, task.start + task.duration - from - 50);
      }, 0);
    const extra = options.measure ? await page.evaluate(options.measure) : undefined;
    let nextMs: number | undefined;
    if (options.next && options.rows) {
      await page.evaluate(NEXT_ROWS_PROBE(options.rows));
      await options.next.go(page);
      // Polled from here: waitForFunction builds a function in the page, which its CSP refuses.
      for (
        let waited = 0;
        waited < 30_000 && !(await page.evaluate('window.__benchNextAt > 0'));
        waited += 50
      )
        await page.waitForTimeout(50);
      nextMs = Number(await page.evaluate(rowsAfterScript(options.next.part, '__benchNextAt')));
    }
    return { files, lcpMs: probe.lcp, tbtMs, extra, rowsAtMs: probe.rowsAt, nextMs };
  } finally {
    await context.close();
  }
}
