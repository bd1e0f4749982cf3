import { afterAll, afterEach, beforeEach } from 'vitest';
import { type CspViolation, takeCspViolations } from './browser';

/**
 * Shared setup of every e2e file (vitest.config.ts): a Content-Security-Policy violation in
 * any page the suite opens fails the test it happened in, so a screen that needs inline script,
 * eval or a source the policy does not name is caught where it is built (docs/security.md).
 */
function fail(violations: CspViolation[], when: string) {
  if (violations.length === 0) return;
  const lines = violations.map(
    (v) =>
      `  ${v.directive} blocked ${v.blocked || '(inline)'} on ${v.page} (${v.source}:${v.line}) ${v.sample}`,
  );
  throw new Error(`Content-Security-Policy violations ${when}:\n${lines.join('\n')}`);
}

beforeEach(async () =>
  fail(await takeCspViolations(), 'before this test (in a beforeAll or an earlier test)'),
);
afterEach(async () => fail(await takeCspViolations(), 'during this test'));
afterAll(async () => fail(await takeCspViolations(), 'after the last test'));
