import type { LaunchOptions } from 'playwright-core';

/**
 * How the e2e suite and the web bench start Debian's Chromium: headless, with the flags a
 * closed network needs (no background downloads, updates, sync or QUIC). Free of DOM types,
 * so the bench (compiled without them) can import it.
 */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
