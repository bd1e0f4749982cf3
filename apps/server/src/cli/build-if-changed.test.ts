import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../scripts/build-if-changed.mjs',
);
const root = mkdtempSync(path.join(tmpdir(), 'fleetgate-build-'));

/** A stand-in for `vite build`: empties dist, writes index.html, says it ran; fails when asked to. */
const FAKE_BUILD = `node -e "
const fs = require('node:fs');
if (fs.existsSync('fail-build')) process.exit(3);
fs.rmSync('apps/web/dist', { recursive: true, force: true });
fs.mkdirSync('apps/web/dist', { recursive: true });
fs.writeFileSync('apps/web/dist/index.html', '<html></html>');
console.log('FAKE BUILD RAN');
"`;

function write(relative: string, content: string) {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function run(...args: string[]) {
  return runWith({}, ...args);
}

/** Runs the script on the temporary repository with the fake build and extra `variables`. */
function runWith(variables: Record<string, string>, ...args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...variables,
    FLEETGATE_BUILD_ROOT: root,
    FLEETGATE_BUILD_COMMAND: FAKE_BUILD,
  };
  delete env.NODE_ENV;
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: root, env, encoding: 'utf8' });
  return {
    status: result.status,
    output: result.stdout + result.stderr,
    built: result.stdout.includes('FAKE BUILD RAN'),
  };
}

beforeAll(() => {
  write('apps/web/src/main.tsx', 'export const a = 1;\n');
  write('apps/web/index.html', '<div id="root"></div>\n');
  write('apps/web/node_modules/.vite/cache.json', '{}');
  write('packages/shared/src/limits.ts', 'export const B = 2;\n');
  write('package-lock.json', '{}\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('scripts/build-if-changed.mjs (npm start)', () => {
  it('builds when there is no build, then skips while nothing changed', () => {
    const first = run();
    expect(first.status).toBe(0);
    expect(first.built).toBe(true);
    expect(existsSync(path.join(root, 'node_modules/.cache/fleetgate/web-build-stamp.json'))).toBe(true);

    const second = run();
    expect(second.status).toBe(0);
    expect(second.built).toBe(false);
    expect(second.output).toContain('Console up to date');
  });

  it('rebuilds after a change in a console source, in the shared package or in the lock file', () => {
    for (const [file, content] of [
      ['apps/web/src/main.tsx', 'export const a = 2;\n'],
      ['apps/web/src/features/new/Thing.tsx', 'export const t = 1;\n'],
      ['packages/shared/src/limits.ts', 'export const B = 3;\n'],
      ['package-lock.json', '{"lockfileVersion":3}\n'],
    ] as const) {
      write(file, content);
      expect(run().built, file).toBe(true);
      expect(run().built, file).toBe(false);
    }
  });

  it('ignores outputs and caches (dist, node_modules)', () => {
    write('apps/web/node_modules/.vite/cache.json', '{"changed":true}');
    write('apps/web/dist/extra.js', '1');
    expect(run().built).toBe(false);
  });

  it('rebuilds when dist is gone, when a VITE_ variable changes, and always with --force (npm run build)', () => {
    rmSync(path.join(root, 'apps/web/dist'), { recursive: true, force: true });
    expect(run().built).toBe(true);
    expect(run('--force').built).toBe(true);
    expect(runWith({ VITE_FLAG: 'on' }).built).toBe(true);
    expect(runWith({ VITE_FLAG: 'on' }).built).toBe(false);
  });

  it('a failed build exits non-zero, and the next run builds again', () => {
    write('apps/web/src/main.tsx', 'export const a = 3;\n');
    write('fail-build', '');
    const failed = run();
    expect(failed.status).toBe(3);
    expect(failed.output).toContain('The console build failed');
    rmSync(path.join(root, 'fail-build'));
    expect(run().built).toBe(true);
    expect(run().built).toBe(false);
  });
});
