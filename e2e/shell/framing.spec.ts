import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, takeCspViolations } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
/** Another origin (another port): a page there frames whatever `?src=` names. */
let other: Server;
let otherUrl: string;

beforeAll(async () => {
  other = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/own') return response.end('<!doctype html><div id="root">framed</div>');
    const src = url.searchParams.get('src') ?? '';
    response.end(
      `<!doctype html><title>Framer</title><iframe width="800" height="600" src="${src}"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await new Promise((resolve) => other?.close(resolve));
});

/** The one child frame of the framing page. */
const childFrame = (frames: Frame[], main: Frame) => frames.find((frame) => frame !== main);

/** How many `#root` elements a frame shows; a frame the browser refused shows an error page. */
const rootsIn = (frame: Frame) =>
  frame
    .locator('#root')
    .count()
    .catch(() => 0);

describe('console delivery: framing and compression (docs/security.md, Response headers)', () => {
  it('refuses to show the console inside a page of another origin (clickjacking)', async () => {
    const { context, page } = await newPage(browser, otherUrl);
    // The check below sees a framed page when the browser shows it: one of the framer's own.
    await page.goto(`/?src=${encodeURIComponent(`${otherUrl}/own`)}`);
    const own = childFrame(page.frames(), page.mainFrame());
    expect(own && (await rootsIn(own))).toBe(1);

    const answered = page.waitForResponse((r) => r.url().startsWith(`${server.url}/account/login`));
    await page.goto(`/?src=${encodeURIComponent(`${server.url}/account/login`)}`);
    const headers = await (await answered).allHeaders();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');

    const framed = childFrame(page.frames(), page.mainFrame());
    expect(framed).toBeDefined();
    expect(framed!.url().startsWith(server.url)).toBe(false);
    expect(await rootsIn(framed!)).toBe(0);
    expect(
      await framed!
        .getByLabel('Email')
        .count()
        .catch(() => 0),
    ).toBe(0);
    // Chromium may report the refusal as a violation of the framed page's policy: that one is expected.
    const violations = await takeCspViolations();
    expect(violations.filter((v) => v.directive !== 'frame-ancestors')).toEqual([]);
    await context.close();
  });

  it('serves the hashed JavaScript brotli-compressed, cached for a year, when Chromium asks', async () => {
    const { context, page } = await newPage(browser, server.url);
    const scripts: { url: string; headers: Record<string, string> }[] = [];
    page.on('response', (response) => {
      if (/\/assets-static\/[^/]+\.js$/.test(response.url()))
        void response.allHeaders().then((headers) => scripts.push({ url: response.url(), headers }));
    });
    const documentAnswer = await page.goto('/account/login');
    await page.getByLabel('Email').waitFor();
    await expect.poll(() => scripts.length).toBeGreaterThan(0);
    for (const { url, headers } of scripts) {
      expect({ url, encoding: headers['content-encoding'] }).toEqual({ url, encoding: 'br' });
      expect(headers.vary).toContain('accept-encoding');
      expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(headers['content-security-policy']).toContain("script-src 'self'");
    }
    const page0 = await documentAnswer!.allHeaders();
    expect(page0['cache-control']).toBe('no-cache');
    expect(page0['content-security-policy']).toContain("frame-ancestors 'none'");
    await context.close();
  });
});
