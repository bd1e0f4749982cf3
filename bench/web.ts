/**
 * The console's first load: what each screen downloads (JavaScript and CSS: files, raw,
 * gzip and transferred bytes) and how soon it shows (largest contentful paint, total
 * blocking time) on a throttled phone-like profile, against a bare React + react-router page
 * built in the same run; the time from the devices list's answer to 50 rows on screen, at
 * the first load and for the next page, and when the rows are on the screen after
 * navigation start, against a plain React <table> of the same rows.
 *
 *   npm run bench:web [-- --runs 3 --only login,landing --no-throttle --files]
 *
 * Targets (docs/performance.md, Console first load): the signed-in landing (shell and
 * devices table with data) at most 200 KB gzip and at most 3× the bare page; the sign-in
 * page at most 100 KB; the 50 rows at most 2× the plain table. Builds the console first
 * when its sources changed (scripts/build-if-changed.mjs), then runs the real server with
 * the demo fleet.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startBareApp } from './support/bare-app';
import { ms, printMachine, printTable, verdict } from './support/report';
import {
  conditionsLine,
  type LoadedFile,
  type LoadOptions,
  launchChromium,
  loadPage,
  rowsAfterScript,
} from './support/web-page';
import { REPO_ROOT, startDemoServer } from './support/web-server';

const TARGETS = { landingKb: 200, signInKb: 100, landingVsBare: 3, rowsVsPlain: 2 } as const;
const ROWS = 50;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'no-throttle': { type: 'boolean', default: false },
    files: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(args.runs));
const throttle = !args['no-throttle'];
const only = args.only ? new Set(args.only.split(',')) : undefined;

type Screen = Omit<LoadOptions, 'throttle' | 'url'> & { name: string; label: string; path: string };
type Result = {
  screen: Screen;
  files: LoadedFile[];
  lcp: number;
  tbt: number;
  rowsMs: number | undefined;
  /** Every run's rows time, for the spread: a busy machine moves single runs by a third. */
  rowsRuns: number[];
  /** When the rows were on the screen, ms after navigation start: what the user waits for. */
  rowsAt: number | undefined;
  /** The next page's rows, once the screen is there. */
  nextMs: number | undefined;
  nextRuns: number[];
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const spread = (values: number[]) =>
  `(${values.length} runs, ${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const sum = (files: LoadedFile[], key: 'raw' | 'gzip' | 'transferred') =>
  files.reduce((s, f) => s + f[key], 0);

async function measure(browser: Browser, base: string, screen: Screen): Promise<Result> {
  const loads = [];
  for (let run = 0; run < runs; run++) {
    loads.push(await loadPage(browser, { ...screen, url: `${base}${screen.path}`, throttle }));
  }
  const rows = loads.map((l) => l.extra).filter((v): v is number => typeof v === 'number');
  const next = loads
    .map((l) => l.nextMs)
    .filter((v): v is number => typeof v === 'number' && !Number.isNaN(v));
  return {
    screen,
    files: loads[0]!.files,
    lcp: median(loads.map((l) => l.lcpMs)),
    tbt: median(loads.map((l) => l.tbtMs)),
    rowsMs: screen.measure ? median(rows) : undefined,
    rowsRuns: rows,
    rowsAt: screen.measure ? median(loads.map((l) => l.rowsAtMs)) : undefined,
    nextMs: screen.next && next.length ? median(next) : undefined,
    nextRuns: next,
  };
}

const visible = (selector: string) => async (page: Page) => {
  await page.locator(selector).first().waitFor({ state: 'visible' });
};
const rowCount = (selector: string, count: number) => async (page: Page) => {
  await page
    .locator(selector)
    .nth(count - 1)
    .waitFor({ state: 'attached' });
};

printMachine(
  'Console first load: bytes, paint and blocking time per screen, against a bare React + router page',
);
const built = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
if (built.status !== 0) throw new Error('the console did not build');

// Two full pages of devices and a few more: the next page's rows are measured too.
const server = await startDemoServer(2 * ROWS + 10);
const browser = await launchChromium();
const results: Result[] = [];
const failed: string[] = [];
let bare: Result | undefined;
let plain: Result | undefined;
try {
  // product §5: the devices table's page size is a per-user setting; 50 rows fill the landing.
  await server
    .api('POST', '/storage', { key: 'table.devices.page_size', value: ROWS })
    .catch(() => server.api('PUT', '/storage/table.devices.page_size', { value: ROWS }));
  const devices = await server.api<{ data: Record<string, unknown>[] }>('GET', `/devices?limit=${ROWS}`);
  const nextDevices = await server.api<{ data: Record<string, unknown>[] }>(
    'GET',
    `/devices?limit=${ROWS}&offset=${ROWS}`,
  );
  const device = devices.data[0]?.id;
  const signedIn = { cookies: server.cookies };
  const screens: Screen[] = [
    {
      name: 'login',
      label: 'sign-in /account/login',
      path: '/account/login',
      ready: visible('button[type="submit"]'),
    },
    {
      name: 'landing',
      label: `landing /management/devices (${ROWS} rows)`,
      path: '/management/devices',
      ...signedIn,
      ready: rowCount('[data-testid="device-row"]', ROWS),
      rows: { selector: '[data-testid="device-row"]', count: ROWS },
      measure: rowsAfterScript('/api/devices?'),
      next: {
        go: (page) =>
          page.getByTestId('devices-pagination').getByRole('button', { name: '2', exact: true }).click(),
        part: '/api/devices?',
      },
    },
    {
      name: 'companies',
      label: 'companies /companies',
      path: '/companies',
      ...signedIn,
      ready: visible('tbody tr'),
    },
    { name: 'users', label: 'users /users', path: '/users', ...signedIn, ready: visible('tbody tr') },
    {
      name: 'roles',
      label: 'roles /users/roles',
      path: '/users/roles',
      ...signedIn,
      ready: visible('tbody tr'),
    },
    {
      name: 'device',
      label: 'device activity /devices/{id}/activity',
      path: `/devices/${device}/activity`,
      ...signedIn,
      ready: visible('main h1, main h2, main table'),
    },
    {
      name: 'map',
      label: 'device location /devices/{id}/location',
      path: `/devices/${device}/location`,
      ...signedIn,
      ready: visible('.leaflet-container'),
    },
  ];
  // One unmeasured load first: the server compiles its queries and fills its caches then.
  await loadPage(browser, { ...screens[1]!, url: `${server.url}${screens[1]!.path}`, throttle: false });
  for (const screen of screens) {
    if (only && !only.has(screen.name)) continue;
    process.stdout.write(`measuring ${screen.label} ...\n`);
    // A screen that does not show is reported and left out; the others are still measured.
    const result = await measure(browser, server.url, screen).catch((error: unknown) => {
      failed.push(`${screen.label}: ${String(error).split('\n')[0]}`);
      return undefined;
    });
    if (result) results.push(result);
  }

  const first = devices.data[0] ?? {};
  const columns = Object.keys(first)
    .filter((key) => ['string', 'number'].includes(typeof first[key]))
    .slice(0, 8);
  const app = await startBareApp({ columns, rows: devices.data }, { columns, rows: nextDevices.data });
  try {
    process.stdout.write('measuring the bare React + router page ...\n');
    bare = await measure(browser, app.url, {
      name: 'bare',
      label: 'bare React + router',
      path: '/',
      ready: visible('h1'),
    });
    plain = await measure(browser, app.url, {
      name: 'plain',
      label: `bare React + router, plain <table> (${ROWS} rows)`,
      path: '/rows',
      ready: rowCount('tr[data-bench-row]', ROWS),
      rows: { selector: 'tr[data-bench-row]', count: ROWS },
      measure: rowsAfterScript('/rows.json'),
      next: { go: (page) => page.locator('[data-bench-next]').click(), part: '/rows-next.json' },
    });
  } finally {
    await app.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log('');
console.log(
  `Conditions: ${throttle ? conditionsLine() : 'no throttling, cold cache'}; median of ${runs} run(s).`,
);
console.log(
  'JavaScript and CSS only; gzip is each file at level 9 (what the server sends as .gz), transferred is what crossed the wire (brotli, with headers).',
);
console.log('');
const line = (r: Result) => [
  r.screen.label,
  String(r.files.length),
  kb(sum(r.files, 'raw')),
  kb(sum(r.files, 'gzip')),
  kb(sum(r.files, 'transferred')),
  ms(r.lcp),
  ms(r.tbt),
];
printTable(
  ['screen', 'files', 'raw KB', 'gzip KB', 'transferred KB', 'LCP ms', 'TBT ms'],
  [...results, ...(bare ? [bare] : [])].map(line),
);

if (args.files) {
  for (const r of results) {
    console.log('');
    console.log(`${r.screen.label}:`);
    printTable(
      ['file', 'raw KB', 'gzip KB'],
      [...r.files].sort((a, b) => b.gzip - a.gzip).map((f) => [f.url, kb(f.raw), kb(f.gzip)]),
    );
  }
}

console.log('');
const landing = results.find((r) => r.screen.name === 'landing');
const login = results.find((r) => r.screen.name === 'login');
if (landing) {
  const gzip = sum(landing.files, 'gzip') / 1024;
  console.log(
    `landing: ${gzip.toFixed(1)} KB gzip (target ≤ ${TARGETS.landingKb} KB: ${verdict(gzip <= TARGETS.landingKb)})`,
  );
  if (bare) {
    const ratio = sum(landing.files, 'gzip') / sum(bare.files, 'gzip');
    console.log(
      `landing / bare React + router: ${ratio.toFixed(2)}× gzip bytes (target ≤ ${TARGETS.landingVsBare}×: ${verdict(ratio <= TARGETS.landingVsBare)}), ` +
        `${(landing.lcp / bare.lcp).toFixed(2)}× LCP, TBT ${ms(landing.tbt)} ms against ${ms(bare.tbt)} ms`,
    );
  }
  if (plain && landing.rowsMs !== undefined && plain.rowsMs !== undefined) {
    const ratio = landing.rowsMs / plain.rowsMs;
    console.log(
      `${ROWS} rows from the list's answer to the screen, first load: devices table ${ms(landing.rowsMs)} ms ${spread(landing.rowsRuns)}, ` +
        `plain <table> ${ms(plain.rowsMs)} ms ${spread(plain.rowsRuns)}: ` +
        `${ratio.toFixed(2)}× (target ≤ ${TARGETS.rowsVsPlain}×: ${verdict(ratio <= TARGETS.rowsVsPlain)}; ` +
        'the landing also finishes drawing its own page then)',
    );
    console.log(
      `${ROWS} rows on the screen after navigation start, first load: devices table ${ms(landing.rowsAt ?? Number.NaN)} ms, ` +
        `plain <table> ${ms(plain.rowsAt ?? Number.NaN)} ms (what the user waits for)`,
    );
  }
  if (plain && landing.nextMs !== undefined && plain.nextMs !== undefined) {
    const ratio = landing.nextMs / plain.nextMs;
    console.log(
      `${ROWS} rows of the next page from its answer to the screen: devices table ${ms(landing.nextMs)} ms ${spread(landing.nextRuns)}, ` +
        `plain <table> ${ms(plain.nextMs)} ms ${spread(plain.nextRuns)}: ` +
        `${ratio.toFixed(2)}× (target ≤ ${TARGETS.rowsVsPlain}×: ${verdict(ratio <= TARGETS.rowsVsPlain)})`,
    );
  }
}
for (const line of failed) console.log(`not measured: ${line}`);
if (login) {
  const gzip = sum(login.files, 'gzip') / 1024;
  console.log(
    `sign-in: ${gzip.toFixed(1)} KB gzip (target ≤ ${TARGETS.signInKb} KB: ${verdict(gzip <= TARGETS.signInKb)})`,
  );
}
