/**
 * Help texts, one Markdown file per route name in ./content (product §2 Layout: help panel
 * and help links). English only; the panel says so when the console speaks another language.
 */
const files = import.meta.glob<string>('./content/*.md', { eager: true, query: '?raw', import: 'default' });

const byRoute = new Map(
  Object.entries(files).map(([path, text]) => [
    path.replace(/^\.\/content\//, '').replace(/\.md$/, ''),
    text,
  ]),
);

export function helpFor(routeName: string): string | undefined {
  return byRoute.get(routeName);
}

export function helpRoutes(): string[] {
  return [...byRoute.keys()];
}
