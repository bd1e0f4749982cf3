import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { seedFixtures } from './fixtures';
import { freshDir, REPO_ROOT, serverEnv, spawnServer, waitForExit, waitForUrl } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
  }
}

/**
 * Once per run: checks the console is built, then starts the server on an empty data
 * directory so that migrations and the seed run once, adds the fixture tenants and users,
 * and each test file copies the result.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The console is not built: run `npm run build` (npm test does it) before the e2e suite.');
  }
  const templateDir = freshDir('fleetgate-template-');
  const { child, output } = spawnServer(serverEnv(templateDir));
  await waitForUrl(child, output);
  child.kill('SIGTERM');
  const code = await waitForExit(child);
  if (code !== 0) throw new Error(`template server exited with ${code}:\n${output()}`);
  await seedFixtures(templateDir);
  project.provide('templateDir', templateDir);
  return () => rmSync(templateDir, { recursive: true, force: true });
}
