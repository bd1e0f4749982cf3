import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { REPO_ROOT } from './web-server';

/**
 * The floor the console is compared with: React, react-dom and react-router's browser
 * router and nothing else, built by Vite with the console's React plugin. `/` is a page with
 * a heading and a paragraph; `/rows` fetches /rows.json and draws it as a plain <table>
 * (rows keyed by id, as a table of devices would), and its Next button draws /rows-next.json.
 */
const MAIN = `
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router';

type Row = Record<string, string | number | null>;

function Shell() {
  return (
    <div>
      <nav><Link to="/">Home</Link> <Link to="/rows">Rows</Link></nav>
      <Outlet />
    </div>
  );
}

function Home() {
  return (
    <main>
      <h1>Bare React and router</h1>
      <p>The smallest page a React single-page application with a router can show: the floor the console is measured against.</p>
    </main>
  );
}

function Rows() {
  const [data, setData] = useState<{ columns: string[]; rows: Row[] } | null>(null);
  useEffect(() => {
    void fetch('/rows.json').then((r) => r.json()).then(setData);
  }, []);
  if (!data) return <p>Loading</p>;
  return (
    <>
    <button type="button" data-bench-next="" onClick={() => void fetch('/rows-next.json').then((r) => r.json()).then(setData)}>Next</button>
    <table>
      <thead>
        <tr><th />{data.columns.map((c) => <th key={c}>{c}</th>)}</tr>
      </thead>
      <tbody>
        {data.rows.map((row, i) => (
          <tr key={String(row.id ?? i)} data-bench-row="" data-device-id={String(row.id ?? i)}>
            <td><input type="checkbox" aria-label="Select" /></td>
            {data.columns.map((c) => <td key={c}>{String(row[c] ?? '')}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
    </>
  );
}

const router = createBrowserRouter([
  { path: '/', element: <Shell />, children: [{ index: true, element: <Home /> }, { path: 'rows', element: <Rows /> }] },
]);
createRoot(document.getElementById('root')!).render(<StrictMode><RouterProvider router={router} /></StrictMode>);
`;

const HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" /><title>Bare</title></head>
  <body><div id="root"></div><script type="module" src="/main.tsx"></script></body>
</html>
`;

export type BareApp = { url: string; close(): Promise<void> };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * Builds the bare app in a temporary folder (its node_modules is the repository's) and
 * serves it the way the console is served: brotli or gzip made ahead at the best settings,
 * history fallback to index.html. `rows` is what /rows.json answers, `next` /rows-next.json.
 */
export async function startBareApp(
  rows: { columns: string[]; rows: unknown[] },
  next: { columns: string[]; rows: unknown[] },
): Promise<BareApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-bench-bare-'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'index.html'), HTML);
  writeFileSync(path.join(dir, 'main.tsx'), MAIN);
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const outDir = path.join(dir, 'dist');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'rows.json'), JSON.stringify(rows));
  writeFileSync(path.join(outDir, 'rows-next.json'), JSON.stringify(next));
  const files = new Map<string, { raw: Buffer; br: Buffer; gz: Buffer }>();
  for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const raw = readFileSync(full);
    files.set(`/${path.relative(outDir, full).split(path.sep).join('/')}`, {
      raw,
      br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gz: gzipSync(raw, { level: 9 }),
    });
  }
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const key = files.has(pathname) ? pathname : '/index.html';
    const file = files.get(key)!;
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const [body, encoding] = accepts.includes('br')
      ? [file.br, 'br']
      : accepts.includes('gzip')
        ? [file.gz, 'gzip']
        : [file.raw, undefined];
    response.writeHead(200, {
      'content-type': TYPES[path.extname(key)] ?? 'application/octet-stream',
      'content-length': body.length,
      ...(encoding ? { 'content-encoding': encoding, vary: 'Accept-Encoding' } : {}),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
