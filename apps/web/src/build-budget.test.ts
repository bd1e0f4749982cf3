// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The console's first load, in bytes, read from the build (`npm run build`; `npm test` builds
 * before the unit tests): the JavaScript and CSS a page needs before it shows, each file
 * gzipped at level 9 as the server sends it. Bytes are the same on every machine, so this
 * guards what `npm run bench:web` measures in a browser (docs/performance.md, Console first
 * load).
 */
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const MANIFEST = `${DIST}.vite/manifest.json`;

/**
 * The budgets, KB gzip. The targets are 200 KB for the landing and 100 KB for the sign-in
 * page. The sign-in page is a document of its own without React or the component library
 * (src/sign-in/), about 14 KB; its budget keeps that ground. The landing is still above its
 * target (docs/performance.md says what stands between), so its budget holds the ground
 * gained until the next cut lowers it: 441 to 413 when zod left it, 407 when the English
 * texts of other screens began to load with those screens, 408 for the few files it now
 * shares with the sign-in page, 410 for the style sheet of the devices table's plain rows
 * (components/table/cells.module.css), which draw fifty rows in half the time; 398 when the
 * table settings dialog, the HTTP client's two windows and the account gates began to load
 * when first needed; 352 when the landing's modules came in a few files instead of a hundred
 * and thirty, each compressed alone; 333 when zod's no-eval switch stopped importing zod and
 * the socket client and the help panel began to load when first needed; 317 with the
 * router's declarative API instead of its data router; 265 when the menus, popovers,
 * tooltips and filter lists began to load with their first use (components/overlay/), which
 * took Mantine's combobox, popover and floating-ui out of the landing; 259 with the
 * console's frame drawn by rules of our own instead of Mantine's AppShell.
 */
const BUDGET_KB = { signIn: 20, landing: 259 } as const;

/**
 * Each page's entry (its HTML file) and the chunks it loads by dynamic import as soon as it
 * starts, beyond what they import statically: main.tsx picks the console, the console its
 * shell and the route's screen (the account gates come only for a user they apply to). The landing is the devices table, the default first page
 * (product §2 Route table); vite.config.ts puts its modules in a few named chunks, one per
 * step of its load (`LANDING_FILES`). The sign-in page imports everything it draws statically.
 */
const FIRST_LOADS = {
  signIn: { entry: 'sign-in.html', named: [] },
  landing: { entry: 'index.html', named: ['shell', 'devices-screen'] },
} as const;

/** The account pages load instead of the shell, from the same entry. */
const ACCOUNT_APP = 'src/features/account/AccountApp.tsx';

type Chunk = { file: string; name?: string; css?: string[]; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, Chunk>;

/** The manifest's key of the chunk vite.config.ts names so. */
function namedChunk(manifest: Manifest, name: string): string {
  const key = Object.keys(manifest).find((k) => manifest[k]?.name === name && k.endsWith('.js'));
  if (!key)
    throw new Error(`no chunk is named ${name}: vite.config.ts no longer groups the landing's modules`);
  return key;
}

/**
 * Every file of an entry and of other chunks, static imports followed, and with `onDemand`
 * dynamic imports too (everything the page may ever load).
 */
function filesFrom(manifest: Manifest, keys: readonly string[], { onDemand = false } = {}): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is no chunk of the build: a module moved`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
    if (onDemand) for (const imported of chunk.dynamicImports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

/** Every file a page loads first. */
function filesOf(
  manifest: Manifest,
  { entry, named }: { entry: string; named: readonly string[] },
): string[] {
  return filesFrom(manifest, [entry, ...named.map((name) => namedChunk(manifest, name))]);
}

function gzipKb(file: string): number {
  return gzipSync(readFileSync(`${DIST}${file}`), { level: 9 }).length / 1024;
}

const built = existsSync(MANIFEST);
if (!built) {
  console.warn(
    `build-budget.test.ts: ${MANIFEST} is missing; run \`npm run build\` to check the first-load budget.`,
  );
}

describe.skipIf(!built)('first load (docs/performance.md, Console first load)', () => {
  const manifest: Manifest = built ? JSON.parse(readFileSync(MANIFEST, 'utf8')) : {};

  it.each([
    ['sign-in page', 'signIn'],
    ['signed-in landing', 'landing'],
  ] as const)('the %s stays within its budget', (_label, page) => {
    const sizes = filesOf(manifest, FIRST_LOADS[page]).map((file) => ({ file, kb: gzipKb(file) }));
    const total = sizes.reduce((sum, s) => sum + s.kb, 0);
    const biggest = sizes
      .sort((a, b) => b.kb - a.kb)
      .slice(0, 8)
      .map((s) => `${s.file} ${s.kb.toFixed(1)} KB`);
    expect(
      total,
      `${page}: ${total.toFixed(1)} KB gzip in ${sizes.length} files; biggest: ${biggest.join(', ')}`,
    ).toBeLessThanOrEqual(BUDGET_KB[page]);
  });

  it('the landing comes in a handful of files, each step of its load in one', () => {
    // A hundred small files each compressed alone cost about 35 KB gzip more, and a request each.
    expect(filesOf(manifest, FIRST_LOADS.landing).length).toBeLessThanOrEqual(20);
  });

  it('the sign-in page never loads the console entry, not even on demand: it would start the console there', () => {
    const reachable = filesFrom(manifest, ['sign-in.html'], { onDemand: true });
    expect(reachable.length).toBeGreaterThan(1);
    expect(reachable).not.toContain(manifest['index.html']?.file);
  });

  it('the account pages do not load the shell or the devices screen', () => {
    const account = filesFrom(manifest, ['index.html', ACCOUNT_APP]);
    for (const name of ['shell', 'devices-screen']) {
      const chunk = manifest[namedChunk(manifest, name)];
      expect(account, name).not.toContain(chunk?.file);
    }
  });

  it('other languages than English are not part of any first load', () => {
    const first = new Set([
      ...filesOf(manifest, FIRST_LOADS.signIn),
      ...filesOf(manifest, FIRST_LOADS.landing),
    ]);
    const locales = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => /\/locale-[a-z-]+-[^/]+\.js$/.test(file));
    expect(locales.length).toBeGreaterThan(0);
    expect(locales.filter((file) => first.has(file))).toEqual([]);
  });

  it('zod is not part of any first load: forms load it with their schemas', () => {
    // zod's own issue code, in its schema module and nowhere in the console's code.
    const holdsZod = (file: string) => readFileSync(`${DIST}${file}`, 'utf8').includes('"invalid_type"');
    const zodFiles = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js') && holdsZod(file));
    expect(zodFiles.length).toBeGreaterThan(0);
    for (const page of ['signIn', 'landing'] as const) {
      expect(
        filesOf(manifest, FIRST_LOADS[page]).filter((file) => zodFiles.includes(file)),
        page,
      ).toEqual([]);
    }
  });
});
