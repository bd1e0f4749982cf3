import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * Accessibility checks with axe-core (WCAG 2.1 A and AA rules), run inside the page.
 *
 * axe's own script is evaluated through the DevTools protocol (`page.evaluate`), not added as
 * a script element: the console's Content-Security-Policy allows no inline script, and an
 * evaluation is not subject to it, so the check reports no violation of its own.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets of WCAG 2.0 and 2.1, levels A and AA. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Impacts that fail a screen; 'moderate' and 'minor' are advice. */
const FAILING = new Set(['serious', 'critical']);

/** One failing rule and the elements that break it. */
export type AxeViolation = {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
};

type AxeResultsLike = {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[]; html: string; failureSummary?: string }[];
  }[];
};

/**
 * Runs axe on the page as it is now (injecting it on first use in each document) and returns
 * the serious and critical violations. `include` narrows the check to one part of the page
 * (an open window); `disabled` names rules to skip, each with its reason at the caller.
 */
export async function axeViolations(
  page: Page,
  options: { include?: string; disabled?: string[] } = {},
): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof Reflect.get(window, 'axe') === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ tags, include, disabled }) => {
      const axe = Reflect.get(window, 'axe') as {
        run(context: unknown, options: unknown): Promise<AxeResultsLike>;
      };
      const rules = Object.fromEntries(disabled.map((id) => [id, { enabled: false }]));
      const result = await axe.run(include ?? document, {
        runOnly: { type: 'tag', values: tags },
        rules,
        resultTypes: ['violations'],
      });
      // Only what the report needs crosses back: a full result carries every passing node too.
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'minor',
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.map(String).join(' '),
          html: n.html,
          summary: n.failureSummary ?? '',
        })),
      }));
    },
    { tags: TAGS, include: options.include, disabled: options.disabled ?? [] },
  );
  return results.filter((v) => FAILING.has(v.impact));
}

/** The violations in words: rule, impact, help, then each element's selector, markup and why. */
export function describeViolations(violations: AxeViolation[], where: string): string {
  const lines = violations.flatMap((v) => [
    `  ${v.id} (${v.impact}): ${v.help}`,
    ...v.nodes
      .slice(0, 8)
      .flatMap((n) => [
        `    at ${n.target}`,
        `      ${n.html.replace(/\s+/g, ' ').slice(0, 200)}`,
        ...(n.summary ? [`      ${n.summary.replace(/\s*\n\s*/g, ' | ').slice(0, 300)}`] : []),
      ]),
    ...(v.nodes.length > 8 ? [`    … and ${v.nodes.length - 8} more`] : []),
  ]);
  return `${where}\n${lines.join('\n')}`;
}
