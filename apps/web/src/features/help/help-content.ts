/**
 * Help texts, one Markdown file per route name in ./content (product §2 Layout: help panel
 * and help links). English only; the panel says so when the console speaks another language.
 * Each text is fetched when its panel opens: knowing which routes have one costs only the
 * file names, so no screen's first load carries the texts.
 */
const files = import.meta.glob<string>('./content/*.md', { query: '?raw', import: 'default' });

const byRoute = new Map(
  Object.entries(files).map(([path, load]) => [
    path.replace(/^\.\/content\//, '').replace(/\.md$/, ''),
    load,
  ]),
);

/** Whether a route has a help text (without fetching it). */
export function hasHelp(routeName: string): boolean {
  return byRoute.has(routeName);
}

/** A route's help text, fetched on first use; undefined for a route without one. */
export async function loadHelp(routeName: string): Promise<string | undefined> {
  return byRoute.get(routeName)?.();
}

export function helpRoutes(): string[] {
  return [...byRoute.keys()];
}
