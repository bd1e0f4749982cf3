import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, several projects. `server-pg` repeats the API suite on a real
 * PostgreSQL when TEST_DATABASE_URL is set (ARCHITECTURE §7); e2e drives Chromium
 * against the real server and runs only when asked for (`--project e2e`).
 */
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: 'packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'server-pg',
                root: 'apps/server',
                include: ['src/**/*.api.test.ts'],
                environment: 'node' as const,
                env: { FG_TEST_DB: 'postgres' },
                testTimeout: 20_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        // `#src/lib/...` is apps/web/src/lib/..., as in apps/web/vite.config.ts.
        resolve: {
          alias: [{ find: /^#src\//, replacement: `${path.resolve(import.meta.dirname, 'apps/web/src')}/` }],
        },
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.spec.ts'],
          environment: 'node',
          globalSetup: ['./support/global-setup.ts'],
          // Fails the test during which a page reported a Content-Security-Policy violation.
          setupFiles: ['./support/csp-guard.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Pages load slower on a busy two-core CI machine than locally: polls wait up to 10 s.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          // A server and a Chromium per file; two at a time on two cores.
          maxWorkers: 2,
          retry: 1,
        },
      },
    ],
  },
});
