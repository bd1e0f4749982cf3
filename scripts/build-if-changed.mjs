// Builds the console (apps/web) only when what goes into it changed since the last build,
// so that `npm start` does not spend seconds rebuilding the same files every time.
//
//   node scripts/build-if-changed.mjs           build when the inputs differ from the stamp
//   node scripts/build-if-changed.mjs --force   build whatever the stamp says (npm run build)
//
// The inputs are hashed by content: the console's and the shared package's files, the lock
// file (dependency versions), the base tsconfig and the variables Vite reads. After a
// successful build their digest is written to node_modules/.cache/fleetgate/web-build-stamp.json
// (outside dist, which the server serves); it is removed before a build starts, so a
// failed build leaves no stamp and the next run builds.
// FLEETGATE_BUILD_ROOT and FLEETGATE_BUILD_COMMAND replace the repository and the build
// command (tests).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(
  process.env.FLEETGATE_BUILD_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
);
const command = process.env.FLEETGATE_BUILD_COMMAND ?? 'npm run build --workspace @fleetgate/web --silent';
const force = process.argv.includes('--force');

const INPUTS = ['apps/web', 'packages/shared', 'package-lock.json', 'tsconfig.base.json'];
/** Folders that are outputs or caches, not inputs. */
const SKIPPED = new Set(['node_modules', 'dist', '.vite', 'coverage']);
const DIST = path.join(root, 'apps/web/dist');
const STAMP = path.join(root, 'node_modules/.cache/fleetgate/web-build-stamp.json');

/** The files of an input (a file, or a folder walked in a fixed order), relative to the root. */
function filesOf(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .filter((name) => !SKIPPED.has(name))
    .sort()
    .flatMap((name) => filesOf(path.join(relative, name)));
}

function inputsDigest() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesOf)) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  // Vite bakes VITE_* variables into the bundle, and MAP_TILE_* too (apps/web/vite.config.ts);
  // NODE_ENV changes how it builds.
  const variables = Object.keys(process.env)
    .filter((name) => name.startsWith('VITE_') || name.startsWith('MAP_TILE_') || name === 'NODE_ENV')
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
  hash.update(variables.join('\n'));
  return hash.digest('hex');
}

function stampedDigest() {
  if (!existsSync(path.join(DIST, 'index.html'))) return null;
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).inputs ?? null;
  } catch {
    return null;
  }
}

const digest = inputsDigest();
if (!force && stampedDigest() === digest) {
  console.log('Console up to date (no change since its last build); not rebuilding.');
} else {
  console.log(
    force ? 'Building the console.' : 'Building the console (its sources changed since the last build).',
  );
  rmSync(STAMP, { force: true });
  const result = spawnSync(command, { cwd: root, shell: true, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `The console build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}).`,
    );
    process.exit(result.status || 1);
  }
  // The digest of the inputs as they were when the build began: a change made during the
  // build does not match it, so the next run builds again.
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify({ inputs: digest, builtAt: new Date().toISOString() })}\n`);
}
