import { ROUTES } from '@fleetgate/shared/routes';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import type { Feature } from '#src/lib/define-feature';
import { COMPANY_TAB_BODIES } from '../companies/tab-bodies';
import { helpRoutes, loadHelp } from './help-content';

/** The console's screens by route name, read from the feature manifests. */
const manifests = import.meta.glob<Record<string, Feature>>('../*/manifest.ts', { eager: true });
const PAGES = Object.assign(
  {},
  ...Object.values(manifests).flatMap((manifest) => Object.values(manifest).map((feature) => feature.pages)),
);

/**
 * Every route that shows help, as a panel or a link (product §2 Layout), read from the route
 * table, among the routes that have a screen: a help text ships with its screen, so that
 * it never describes buttons that are not there yet.
 */
const hasScreen = (name: string | undefined): boolean =>
  name !== undefined &&
  name in PAGES &&
  (!name.startsWith('company.') || name === 'company.tree' || COMPANY_TAB_BODIES.includes(name));
const routesWithHelp = ROUTES.filter(
  (route) => route.help && (hasScreen(route.name) || hasScreen(route.redirect)),
).map((route) => route.name);

/** Words a reader sees: Markdown markers (#, -, **, `, |) are not counted. */
function wordsOf(markdown: string): number {
  return markdown.match(/[\p{L}\p{N}][\p{L}\p{N}'.,:/-]*/gu)?.length ?? 0;
}

/** Placeholder wording the brief forbids in shipped text, and promises of later features. */
const FORBIDDEN_WORDING = [
  /coming soon/i,
  /not implemented/i,
  /\bTODO\b/,
  /\bTBD\b/,
  /lorem ipsum/i,
  /\bin a future\b/i,
];

describe('help texts (product §2 Layout: help side panel and help links)', () => {
  it('the route table names routes with help', () => {
    expect(routesWithHelp.length).toBeGreaterThan(0);
  });

  it.each(routesWithHelp)('%s has a help text of 150 to 400 words', async (name) => {
    const text = await loadHelp(name);
    expect(text, `missing content/${name}.md`).toBeTypeOf('string');
    const words = wordsOf(text ?? '');
    expect(words).toBeGreaterThanOrEqual(150);
    expect(words).toBeLessThanOrEqual(400);
  });

  it.each(routesWithHelp)('%s is structured Markdown without HTML or placeholder wording', async (name) => {
    const text = (await loadHelp(name)) ?? '';
    // The panel title already names the page, so sections start at level 2.
    expect(text).toMatch(/^## \S/m);
    expect(text).not.toMatch(/^# /m);
    expect(text).toMatch(/^(- |\d+\. )/m);
    // Raw HTML is skipped by the panel (skipHtml), so a tag would silently drop text.
    expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
    for (const pattern of FORBIDDEN_WORDING) expect(text).not.toMatch(pattern);
  });

  it.each(routesWithHelp)('%s renders with headings and lists as the panel renders it', async (name) => {
    const html = renderToStaticMarkup(
      createElement(Markdown, { skipHtml: true }, (await loadHelp(name)) ?? ''),
    );
    expect(html).toContain('<h2>');
    expect(html).toMatch(/<(ul|ol)>/);
    // GFM tables are not enabled in the panel: a pipe table would show as raw text.
    expect(html).not.toMatch(/\|\s*---/);
  });

  it('has no help file for a route that does not show help or has no screen yet', () => {
    const orphans = helpRoutes().filter((name) => !(routesWithHelp as readonly string[]).includes(name));
    expect(orphans).toEqual([]);
  });
});
