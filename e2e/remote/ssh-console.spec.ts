import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from '../devices/support';
import { launchBrowser, screenshot } from '../support/browser';
import { USERS } from '../support/fixtures';
import { type RunningServer, startServer } from '../support/server';
import { signedInPage } from '../support/session';

/**
 * Remote access in Chromium against the real server and the simulator (product §2
 * device.access, /rms-connect/ssh, service.connect-history, 'add remote'): Acme's admin opens
 * a device's console in a window of its own, signs in to the simulated device's SSH through
 * its tunnel, runs `uname -a`, resizes, leaves, and reads the session in the access history;
 * then adds a remote entry and opens the console through it; at 1440 and 390 px.
 */

const run = promisify(execFile);
/** OpenSSH's client runs the port-forward test; without it (a bare machine) that test is skipped, saying so. */
const hasSsh = await run('ssh', ['-V']).then(
  () => true,
  () => false,
);
if (!hasSsh) console.warn('remote e2e: OpenSSH client (ssh) not found; the port-forward test is skipped');
const FLEET = 64;
const [DEVICE] = fleetDevices(FLEET, 1);
const WAIT = { timeout: 20_000, interval: 100 };
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let deviceId: number;
let acme: { context: BrowserContext; page: Page };

/** Runs OpenSSH's `ssh` (Debian's openssh-client) with the device's password from SSH_ASKPASS. */
async function runSsh(host: string, port: number, command: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-ssh-'));
  const askpass = path.join(dir, 'askpass.sh');
  writeFileSync(askpass, `#!/bin/sh\necho 'admin-${DEVICE!.serial}'\n`, { mode: 0o700 });
  try {
    const { stdout } = await run(
      'ssh',
      [
        '-p',
        String(port),
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'PreferredAuthentications=password',
        '-o',
        'PubkeyAuthentication=no',
        `admin@${host}`,
        command,
      ],
      {
        env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' },
        timeout: 20_000,
      },
    );
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the terminal shows, row by row as xterm draws it. */
const screenText = (console: Page) =>
  console
    .locator('.xterm-rows')
    .evaluate((rows) => [...rows.children].map((r) => r.textContent ?? '').join('\n'));

/** Opens the console window from `open`, signs in to the device and waits for its prompt. */
async function signInToConsole(page: Page, open: () => Promise<void>): Promise<Page> {
  const [console] = await Promise.all([page.context().waitForEvent('page'), open()]);
  await console.getByTestId('ssh-connect').waitFor();
  expect(await console.getByLabel('User name').inputValue()).toBe('admin');
  await console.getByLabel('Password', { exact: true }).fill(`admin-${DEVICE!.serial}`);
  await console.getByTestId('ssh-connect').click();
  await expect.poll(() => console.getByTestId('ssh-state').textContent(), WAIT).toBe('Connected');
  await expect.poll(() => screenText(console), WAIT).toContain('# ');
  return console;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ template: inject('templateDir') }), launchBrowser()]);
  const { context, page } = await signedInPage(browser, server.url);
  const company = await companyId(page, 'Acme');
  deviceId = (await registerDevices(page, company, [{ ...DEVICE!, name: 'Depot router' }])).get(
    DEVICE!.serial,
  )!;
  await context.close();
  sim = new Simulator({ port: await brokerPort(server), fleet: FLEET, count: 1, company, services: true });
  sim.start();
  acme = await signedInPage(browser, server.url, USERS.acmeAdmin, { viewport: WIDE });
}, 60_000);
afterAll(async () => {
  await acme?.context.close();
  await sim?.dispose();
  await browser?.close();
  await server?.dispose();
});

describe('remote access: the SSH console through a device tunnel', () => {
  it("opens the device's console, runs `uname -a`, follows a resize, and the history shows the session", async () => {
    const { page } = acme;
    await page.goto(`/devices/${deviceId}/access`);
    await expect
      .poll(() => page.getByTestId('page-frame').getByTestId('device-status').first().textContent(), WAIT)
      .toBe('Online');
    expect(await page.getByTestId('remote-entries-empty').textContent()).toContain('No remote entries yet');

    const console = await signInToConsole(page, () => page.getByTestId('device-console').click());
    expect(await console.getByTestId('ssh-target').textContent()).toBe('Depot router');
    expect(await console.getByTestId('ssh-host-key').textContent()).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    await console.locator('.xterm-helper-textarea').focus();
    await console.keyboard.type('uname -a');
    await console.keyboard.press('Enter');
    await expect.poll(() => screenText(console), WAIT).toContain('GNU/Linux');
    expect(await screenText(console)).toContain(`(${DEVICE!.model})`);
    await screenshot(console, 'remote-ssh-console-1440');

    // The window's size is the terminal's: a narrower window, fewer columns on the device.
    const columns = async () => {
      const answers = [...(await screenText(console)).matchAll(/stty size\s*\n?\s*(\d+) (\d+)/g)];
      return answers.length ? Number(answers.at(-1)![2]) : undefined;
    };
    const ask = async () => {
      await console.keyboard.type('stty size');
      await console.keyboard.press('Enter');
    };
    await ask();
    await expect.poll(columns, WAIT).toBeGreaterThan(100);
    const before = (await columns())!;
    await console.setViewportSize({ width: 700, height: 600 });
    await ask();
    await expect.poll(columns, WAIT).toBeLessThan(before);

    await console.keyboard.type('exit');
    await console.keyboard.press('Enter');
    await expect.poll(() => console.getByTestId('ssh-ended').textContent(), WAIT).toBe('The session ended');
    await console.close();

    // The access history: who, what, how it ended and the bytes each way.
    await page.reload();
    const row = page.getByTestId('session-row').first();
    await expect.poll(() => row.getAttribute('data-live'), WAIT).toBe('no');
    expect(await row.textContent()).toContain('acme.admin@fleetgate.test');
    expect(await row.textContent()).toContain('The session ended');
    expect(await row.getByTestId('session-bytes').textContent()).toMatch(/↑ [\d.]+ KB · ↓ [\d.]+ KB/);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'remote-device-access-1440');

    // The session was recorded: its replay shows what the user saw.
    await row.getByTestId('session-replay').click();
    const replay = page.getByTestId('replay-screen');
    await expect.poll(() => replay.getAttribute('data-done'), WAIT).toBe('yes');
    expect(await replay.locator('.xterm-rows').textContent()).toContain('GNU/Linux');
    await screenshot(page, 'remote-replay-1440');
    await page.keyboard.press('Escape');
  });

  it("adds a remote entry with 'Add remote' and opens the console through it", async () => {
    const { page } = acme;
    await page.goto(`/devices/${deviceId}/access`);
    await page.getByTestId('remote-add').click();
    const form = page.getByTestId('form-addRemote');
    await form.getByRole('textbox', { name: 'Name' }).fill('Router shell');
    // A public address is refused in the form with the rule's words.
    await form.getByRole('textbox', { name: 'Host' }).fill('8.8.8.8');
    await form.getByRole('button', { name: 'Add remote' }).click();
    await form
      .getByText('Host must be 127.0.0.1 (the device) or a private LAN address such as 192.168.1.10')
      .waitFor();
    await form.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1');
    await form.getByRole('button', { name: 'Add remote' }).click();
    await page.getByText('Remote entry created successfully').first().waitFor();
    const entry = page.getByTestId('entry-row').filter({ hasText: 'Router shell' });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('127.0.0.1:22');

    const console = await signInToConsole(page, () => entry.getByTestId('entry-open').click());
    expect(await console.getByTestId('ssh-target').textContent()).toBe('Depot router · Router shell');
    await console.getByTestId('ssh-disconnect').click();
    await expect.poll(() => console.getByTestId('ssh-state').textContent(), WAIT).toBe('Closed');
    await console.close();

    // Every entry of every device, and the whole access history, each on its page.
    await page.goto('/remote/access');
    await page.getByTestId('entry-row').filter({ hasText: 'Router shell' }).waitFor();
    await page.goto('/access-history');
    await expect.poll(() => page.getByTestId('session-row').count(), WAIT).toBe(2);
    await screenshot(page, 'remote-access-history-1440');
  });

  it.skipIf(!hasSsh)("opens a port forward and OpenSSH's ssh reaches the device through it", async () => {
    const { page } = acme;
    await page.goto(`/devices/${deviceId}/access`);
    const forwards = page.getByTestId('port-forwards');
    await forwards.getByTestId('forwards-empty').waitFor();
    await forwards.getByTestId('forward-open').click();
    const form = page.getByTestId('form-portForward');
    await form.getByRole('textbox', { name: 'Minutes' }).fill('5');
    await form.getByRole('button', { name: 'Open port forward' }).click();
    const opened = page.getByTestId('forward-opened');
    await opened.waitFor();
    const command = (await opened.getByTestId('forward-command').first().textContent()) ?? '';
    const [, port, host] = /^ssh -p (\d+) admin@(.+)$/.exec(command) ?? [];
    expect(port, command).toBeDefined();
    await screenshot(page, 'remote-port-forward-1440');
    await opened.getByRole('button', { name: 'Done' }).click();

    const answer = await runSsh(host!, Number(port), 'uname -a');
    expect(answer).toContain(`(${DEVICE!.model})`);

    const row = forwards.getByTestId('forward-row');
    await row.waitFor();
    await row.getByTestId('forward-close').click();
    await page.getByText('Port forward closed successfully').first().waitFor();
    await forwards.getByTestId('forwards-empty').waitFor();
  });

  it('at 390 px the access tab and the console fit the screen', async () => {
    const { page } = acme;
    await page.setViewportSize(PHONE);
    try {
      for (const [path, ready, name] of [
        [`/devices/${deviceId}/access`, 'remote-sessions', 'remote-device-access-390'],
        ['/access-history', 'remote-sessions', 'remote-access-history-390'],
      ] as const) {
        await page.goto(path);
        await page.getByTestId(ready).first().waitFor();
        // Measured once the page has settled at the new width (a table drawn while it loads is wider).
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth - innerWidth), {
            ...WAIT,
            message: path,
          })
          .toBeLessThanOrEqual(0);
        await screenshot(page, name);
      }
      await page.goto(`/devices/${deviceId}/access`);
      const console = await signInToConsole(page, () => page.getByTestId('device-console').click());
      await console.setViewportSize(PHONE);
      const widths = await console.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: innerWidth,
      }));
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      await screenshot(console, 'remote-ssh-console-390');
      await console.close();
    } finally {
      await page.setViewportSize(WIDE);
    }
  });
});
