import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from '../devices/support';
import { pageApi } from '../support/api';
import { axeViolations } from '../support/axe';
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
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const [DEVICE] = fleetDevices(FLEET, 1);
const WAIT = { timeout: 20_000, interval: 100 };
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let sim: Simulator;
let deviceId: number;
let acme: { context: BrowserContext; page: Page };

/**
 * Runs OpenSSH's `ssh` or `sftp` (Debian's openssh-client) against host:port with the device's
 * password from SSH_ASKPASS: `ssh` runs `work` as its command, `sftp` runs it as a batch file.
 */
async function runOpenSsh(
  program: 'ssh' | 'sftp',
  host: string,
  port: number,
  work: string,
): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-ssh-'));
  const askpass = path.join(dir, 'askpass.sh');
  writeFileSync(askpass, `#!/bin/sh\necho 'admin-${DEVICE!.serial}'\n`, { mode: 0o700 });
  const batch = path.join(dir, 'batch');
  if (program === 'sftp') writeFileSync(batch, work);
  const options = [
    'StrictHostKeyChecking=no',
    'UserKnownHostsFile=/dev/null',
    'PreferredAuthentications=password',
    'PubkeyAuthentication=no',
  ];
  try {
    const { stdout } = await run(
      program,
      [
        program === 'ssh' ? '-p' : '-P',
        String(port),
        ...options.flatMap((option) => ['-o', option]),
        // `sftp -b` turns BatchMode on, which would forbid the password from SSH_ASKPASS.
        ...(program === 'sftp'
          ? ['-o', 'BatchMode=no', '-b', batch, `admin@${host}`]
          : [`admin@${host}`, work]),
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

  it('browses the device files: uploads a file and downloads it back with the same SHA-256', async () => {
    const { page } = acme;
    await page.goto(`/devices/${deviceId}/access`);
    const [files] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId('device-files').click(),
    ]);
    await files.getByLabel('Password', { exact: true }).fill(`admin-${DEVICE!.serial}`);
    await files.getByTestId('sftp-connect').click();
    await files
      .locator('[data-testid=sftp-entry][data-name=tmp]')
      .getByRole('button', { name: 'tmp', exact: true })
      .click();
    await expect.poll(() => files.getByTestId('sftp-path').textContent(), WAIT).toBe('/tmp');

    const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-sftp-'));
    const original = path.join(dir, 'config-backup.bin');
    const bytes = randomBytes(2 * 1024 * 1024 + 5);
    writeFileSync(original, bytes);
    try {
      const [chooser] = await Promise.all([
        files.waitForEvent('filechooser'),
        files.getByTestId('sftp-upload').click(),
      ]);
      await chooser.setFiles(original);
      await files.locator('[data-testid=sftp-transfer][data-state=done]').waitFor(WAIT);
      const row = files.locator('[data-testid=sftp-entry][data-name="config-backup.bin"]');
      expect(await row.textContent()).toContain('2 MB');
      const [download] = await Promise.all([
        files.waitForEvent('download'),
        row.getByTestId('sftp-download').click(),
      ]);
      expect(download.suggestedFilename()).toBe('config-backup.bin');
      const saved = await download.path();
      expect(sha256(readFileSync(saved))).toBe(sha256(bytes));
      await screenshot(files, 'remote-sftp-1440');
      // Times in the console's format (product §9: YYYY-MM-DD HH:mm:ss).
      expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

      // A new folder: an empty name is asked for, and a name the device refuses is told in
      // the dialog, which keeps it.
      await files.getByTestId('sftp-mkdir').click();
      await files.getByTestId('sftp-confirm').click();
      await files.getByText('Enter a name').waitFor();
      await files.getByTestId('sftp-name').fill('config-backup.bin');
      await files.getByTestId('sftp-confirm').click();
      await expect.poll(() => files.getByTestId('sftp-name').getAttribute('aria-invalid'), WAIT).toBe('true');
      expect(await files.getByTestId('sftp-name').inputValue()).toBe('config-backup.bin');
      await files.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // Renamed, then deleted.
      await row.getByTestId('sftp-rename').click();
      await files.getByTestId('sftp-name').fill('kept.bin');
      await files.getByTestId('sftp-confirm').click();
      await files.locator('[data-testid=sftp-entry][data-name="kept.bin"]').waitFor(WAIT);
      await files
        .locator('[data-testid=sftp-entry][data-name="kept.bin"]')
        .getByTestId('sftp-delete')
        .click();
      await files.getByTestId('sftp-confirm').click();
      await files.getByTestId('sftp-empty').waitFor(WAIT);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await files.getByTestId('sftp-disconnect').click();
    await files.close();
  });

  it('opens a telnet entry in the console and a VNC entry on the desktop, drawn by noVNC', async () => {
    const { page } = acme;
    const add = async (body: Record<string, unknown>) =>
      (
        await pageApi<{ data: { id: number } }>(page, 'POST', '/api/devices/remote-access', {
          device_id: deviceId,
          ...body,
        })
      ).body.data.id;
    await add({ name: 'Router telnet', protocol: 'telnet' });
    await add({ name: 'Office PC', protocol: 'vnc', host: '192.168.1.10' });
    await page.goto(`/devices/${deviceId}/access`);

    const telnet = page.getByTestId('entry-row').filter({ hasText: 'Router telnet' });
    const [console] = await Promise.all([
      page.context().waitForEvent('page'),
      telnet.getByTestId('entry-open').click(),
    ]);
    await console.getByLabel('Password', { exact: true }).fill(`admin-${DEVICE!.serial}`);
    await console.getByTestId('ssh-connect').click();
    await expect.poll(() => screenText(console), WAIT).toContain('# ');
    await console.locator('.xterm-helper-textarea').focus();
    await console.keyboard.type('uname -a');
    await console.keyboard.press('Enter');
    await expect.poll(() => screenText(console), WAIT).toContain('GNU/Linux');
    expect(await console.getByRole('heading', { level: 1 }).textContent()).toBe('Telnet console');
    await screenshot(console, 'remote-telnet-1440');
    await console.close();

    const vnc = page.getByTestId('entry-row').filter({ hasText: 'Office PC' });
    const [desktop] = await Promise.all([
      page.context().waitForEvent('page'),
      vnc.getByTestId('entry-open').click(),
    ]);
    await expect.poll(() => desktop.getByTestId('desktop-state').textContent(), WAIT).toBe('Connected');
    // The simulated desktop's marker: its top-left square is #2563eb.
    const pixel = () =>
      desktop
        .locator('[data-testid=desktop-screen] canvas')
        .evaluate((canvas: HTMLCanvasElement) =>
          [...canvas.getContext('2d')!.getImageData(8, 8, 1, 1).data].slice(0, 3),
        );
    await expect.poll(pixel, WAIT).toEqual([0x25, 0x63, 0xeb]);
    await screenshot(desktop, 'remote-desktop-1440');
    await desktop.getByTestId('desktop-disconnect').click();
    await expect
      .poll(() => desktop.getByTestId('desktop-ended').textContent(), WAIT)
      .toBe('The desktop was closed');
    // 'Connect again' starts a fresh desktop.
    await desktop.getByTestId('desktop-reconnect').click();
    await expect.poll(() => desktop.getByTestId('desktop-state').textContent(), WAIT).toBe('Connected');
    await expect.poll(pixel, WAIT).toEqual([0x25, 0x63, 0xeb]);
    await desktop.close();

    // Every protocol is in the one history, with its bytes.
    await page.goto('/access-history');
    for (const protocol of ['SFTP', 'Telnet', 'VNC'])
      await expect
        .poll(() => page.getByTestId('session-row').filter({ hasText: protocol }).count(), WAIT)
        .toBeGreaterThan(0);
  });

  it("opens the device's web UI on the proxy's own origin: signs in, follows its redirects, saves a form", async () => {
    const { page } = acme;
    await page.goto(`/devices/${deviceId}/access`);
    const [web] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId('device-web').click(),
    ]);
    await web.getByRole('button', { name: 'Login' }).waitFor(WAIT);
    // Another origin than the console's: the device page can neither read nor set its cookies.
    const proxy = new URL(web.url());
    expect(proxy.origin).not.toBe(new URL(server.url).origin);
    expect(proxy.pathname).toBe('/cgi-bin/luci');
    await web.getByLabel('Password').fill(`admin-${DEVICE!.serial}`);
    await web.getByRole('button', { name: 'Login' }).click();
    await web.getByRole('heading', { name: 'Status' }).waitFor(WAIT);
    expect(await web.locator('#status').textContent()).toContain(DEVICE!.serial);
    await web.getByLabel('Description').fill('Depot, rack 2');
    await web.getByRole('button', { name: 'Save' }).click();
    // The device answered with its own absolute address: the proxy brought it back to its origin.
    await expect.poll(() => web.locator('#status').textContent(), WAIT).toContain('Depot, rack 2');
    expect(new URL(web.url()).origin).toBe(proxy.origin);
    expect(await web.locator('#logout').getAttribute('href')).toBe(`${proxy.origin}/cgi-bin/luci/logout`);
    await screenshot(web, 'remote-web-ui-1440');
    await web.close();
  });

  it('shares an entry: the link opens the console without sign-in, and revoked it opens nothing', async () => {
    const { page } = acme;
    const entries = await pageApi<{ data: { id: number; name: string }[] }>(
      page,
      'GET',
      `/api/devices/remote-access?device_id=${deviceId}`,
    );
    const entry = entries.body.data.find((e) => e.name === 'Router shell')!;
    await page.goto(`/remote/access/${entry.id}`);
    const links = page.getByTestId('share-links');
    await links.getByTestId('share-empty').waitFor();
    await links.getByTestId('share-open').click();
    const form = page.getByTestId('form-shareLink');
    await form.getByRole('textbox', { name: 'Minutes' }).fill('30');
    await form.getByRole('button', { name: 'Make share link' }).click();
    const url = (await page.getByTestId('share-url').textContent()) ?? '';
    expect(url).toMatch(/\/rms-connect\/ssh\?key=[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'remote-share-link-1440');
    await page.getByTestId('share-made').getByRole('button', { name: 'Done' }).click();

    // Someone with no account opens it: the console, signed in to the device, no Fleetgate sign-in.
    const stranger = await browser.newContext({ viewport: WIDE });
    const shared = await stranger.newPage();
    await shared.goto(url);
    await expect
      .poll(() => shared.getByTestId('ssh-target').textContent(), WAIT)
      .toBe('Depot router · Router shell');
    await shared.getByLabel('Password', { exact: true }).fill(`admin-${DEVICE!.serial}`);
    await shared.getByTestId('ssh-connect').click();
    await expect.poll(() => screenText(shared), WAIT).toContain('# ');

    // The creator revokes it: the stranger's session ends, and the link opens nothing more.
    await page.reload();
    await links.getByTestId('share-revoke').click();
    await page.getByText('Share link revoked successfully').first().waitFor();
    await expect
      .poll(() => shared.getByTestId('ssh-ended').textContent(), WAIT)
      .toBe('The share link was revoked');
    await shared.reload();
    expect(await shared.getByTestId('connect-ssh-key').textContent()).toBe(
      'This share link is not valid, or it has expired',
    );
    await stranger.close();
    await expect.poll(() => page.getByTestId('session-shared').count(), WAIT).toBeGreaterThan(0);
  });

  it.skipIf(!hasSsh)(
    "opens a port forward and OpenSSH's ssh and sftp reach the device through it",
    async () => {
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

      const answer = await runOpenSsh('ssh', host!, Number(port), 'uname -a');
      expect(answer).toContain(`(${DEVICE!.model})`);
      // OpenSSH's sftp through the same forward: a file up and back, the same bytes.
      const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-sftp-'));
      try {
        const bytes = randomBytes(512 * 1024);
        writeFileSync(path.join(dir, 'up.bin'), bytes);
        await runOpenSsh(
          'sftp',
          host!,
          Number(port),
          `put ${path.join(dir, 'up.bin')} /tmp/forwarded.bin\nget /tmp/forwarded.bin ${path.join(dir, 'back.bin')}\nrm /tmp/forwarded.bin\n`,
        );
        expect(sha256(readFileSync(path.join(dir, 'back.bin')))).toBe(sha256(bytes));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      const row = forwards.getByTestId('forward-row');
      await row.waitFor();
      await row.getByTestId('forward-close').click();
      await page.getByText('Port forward closed successfully').first().waitFor();
      await forwards.getByTestId('forwards-empty').waitFor();
    },
  );

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
      // The terminal refits on the window's resize event: measured once it has.
      await expect
        .poll(() => console.evaluate(() => document.documentElement.scrollWidth - innerWidth), WAIT)
        .toBeLessThanOrEqual(0);
      await screenshot(console, 'remote-ssh-console-390');
      expect(await axeViolations(console)).toEqual([]);
      await console.close();

      // The files and the desktop, each signed in or connected, fit the phone and pass axe.
      for (const [screen, ready] of [
        [
          'sftp',
          async (p: Page) => {
            await p.getByLabel('Password', { exact: true }).fill(`admin-${DEVICE!.serial}`);
            await p.getByTestId('sftp-connect').click();
            await p.getByTestId('sftp-entry').first().waitFor(WAIT);
          },
        ],
        [
          'desktop',
          async (p: Page) => {
            await expect.poll(() => p.getByTestId('desktop-state').textContent(), WAIT).toBe('Connected');
          },
        ],
      ] as const) {
        const connect = await page.context().newPage();
        await connect.setViewportSize(PHONE);
        await connect.goto(`/rms-connect/${screen}?device_id=${deviceId}`);
        await ready(connect);
        await expect
          .poll(() => connect.evaluate(() => document.documentElement.scrollWidth - innerWidth), WAIT)
          .toBeLessThanOrEqual(0);
        expect(await axeViolations(connect), screen).toEqual([]);
        await screenshot(connect, `remote-${screen}-390`);
        await connect.close();
      }
    } finally {
      await page.setViewportSize(WIDE);
    }
  });
});
