import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { APP_VERSION } from '@fleetgate/shared/constants';
import { SIGN_IN_PATH } from '@fleetgate/shared/routes';
import react from '@vitejs/plugin-react';
import type { CodeSplittingGroup, OutputChunk, RolldownOutput } from 'rolldown';
import { build, defineConfig, type Plugin, type PluginOption, type UserConfig } from 'vite';

/** Seconds since the epoch at build time: the update prompt compares against it (product §4). */
const builtAt = Math.floor(Date.now() / 1000);

/** Writes /version.json, which /versionWorker.js reports to open consoles. */
function versionFile(): Plugin {
  return {
    name: 'fleetgate-version-file',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ version: APP_VERSION, timestamp: builtAt }),
      });
    },
  };
}

/** File types that shrink when compressed; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|xml|map|wasm)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Every file under a folder, recursively. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `name.br` and `name.gz` beside every compressible file of the build, at the best
 * (slowest) settings, since it happens once; the server picks one by the request's
 * Accept-Encoding (@fastify/static `preCompressed`) and spends no CPU compressing files.
 * A variant that would not be smaller is left out, and the original goes instead.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'fleetgate-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const raw = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzipped(raw, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * MAP_TILE_URL and MAP_TILE_ATTRIBUTION, the operator's names (README), reach the console as
 * its VITE_ variables; the server reads MAP_TILE_URL too, to allow the tiles in its
 * Content-Security-Policy.
 */
const mapTiles = {
  'import.meta.env.VITE_MAP_TILE_URL': JSON.stringify(
    process.env.MAP_TILE_URL || process.env.VITE_MAP_TILE_URL || '',
  ),
  'import.meta.env.VITE_MAP_TILE_ATTRIBUTION': JSON.stringify(
    process.env.MAP_TILE_ATTRIBUTION || process.env.VITE_MAP_TILE_ATTRIBUTION || '',
  ),
};

/** `@mantine/core/esm/.../Button.module.mjs`: the class names of one component's styles. */
const MANTINE_CORE_CLASSES = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/]([A-Za-z]+)\.module\.mjs$/;
/** The same in a Mantine package with one style sheet for all its parts (notifications). */
const MANTINE_PACKAGE_CLASSES = /[\\/]@mantine[\\/]([a-z-]+)[\\/]esm[\\/].*\.module\.mjs$/;

/**
 * noVNC's browser checks end in one top-level `await` (whether WebCodecs decodes H.264). A
 * single top-level await in the graph makes the bundler keep a strict execution order for
 * every chunk, which splits the shared code of the first loads into dozens of small files
 * (about 15 KB gzip more for the sign-in page). The check is made a promise that sets the
 * same exported flag when it settles: the desktop offers H.264 once the browser has said it
 * can decode it, and plain encodings until then.
 */
function noVncWithoutTopLevelAwait(): Plugin {
  const line = 'supportsWebCodecsH264Decode = await _checkWebCodecsH264DecodeSupport();';
  return {
    name: 'novnc-without-top-level-await',
    transform(code, id) {
      if (!/[\\/]@novnc[\\/]novnc[\\/]core[\\/]util[\\/]browser\.js$/.test(id)) return null;
      if (!code.includes(line)) throw new Error(`noVNC changed: ${id} no longer has its top-level await`);
      return code.replace(
        line,
        'void _checkWebCodecsH264DecodeSupport().then((supported) => { supportsWebCodecsH264Decode = supported; });',
      );
    },
  };
}

/**
 * Mantine's styles travel with the components that use them: the module holding a
 * component's class names imports that component's style sheet (`styles/Button.layer.css`
 * beside `Button.module.mjs`), so a screen's CSS comes in the chunk of its components and
 * the first load carries only the sheets of what it draws, not all 290 KB. main.tsx imports
 * the base sheets. The `.layer.css` variants put Mantine in `@layer mantine`: the console's
 * own styles win over it whatever order the chunks arrive in. The dev server pre-bundles
 * Mantine (no transform reaches it), so there main.tsx gets the whole sheets instead.
 */
function mantineStylesWithComponents(): Plugin {
  let serve = false;
  return {
    name: 'fleetgate-mantine-styles',
    enforce: 'pre',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    transform(code, id) {
      if (serve) {
        if (!/[\\/]src[\\/]main\.tsx$/.test(id)) return null;
        return `import '@mantine/core/styles.layer.css';\nimport '@mantine/notifications/styles.layer.css';\n${code}`;
      }
      const core = MANTINE_CORE_CLASSES.exec(id);
      if (core) return { code: `import '@mantine/core/styles/${core[1]}.layer.css';\n${code}`, map: null };
      const other = MANTINE_PACKAGE_CLASSES.exec(id);
      if (other) return { code: `import '@mantine/${other[1]}/styles.layer.css';\n${code}`, map: null };
      return null;
    },
  };
}

/**
 * The dev server answers the sign-in page with its own document, as the server does
 * (apps/server/src/plugins/spa.ts); every other page falls back to index.html.
 */
function signInPage(): Plugin {
  return {
    name: 'fleetgate-sign-in-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const [pathname, query] = (request.url ?? '').split('?');
        if (pathname?.replace(/\/$/, '') === SIGN_IN_PATH)
          request.url = `/sign-in.html${query === undefined ? '' : `?${query}`}`;
        next();
      });
    },
  };
}

/** Where the console's source lives. */
const src = (file: string) => path.resolve(import.meta.dirname, file);

/**
 * The pages whose first load the build shapes: the entry every console page starts from; the
 * shell, which main.tsx fetches beside the session check; the devices screen, the landing
 * (product §2); the account pages, which load instead of the shell; the sign-in page, a
 * document of its own.
 */
const FIRST_LOADS = {
  entry: src('index.html'),
  shell: src('src/app/MainApp.tsx'),
  devices: src('src/features/devices/table/DevicesPage.tsx'),
  account: src('src/features/account/AccountApp.tsx'),
  signIn: src('sign-in.html'),
} as const;

/**
 * The landing's files, in the order it loads them: the entry; the code the shell shares with
 * the account pages (mostly the component library), so that those pages do not load the
 * shell; the rest of the shell; the devices screen. The highest priority goes first.
 */
const LANDING_FILES = ['entry', 'ui', 'shell', 'devices-screen'] as const;

type LandingFile = (typeof LANDING_FILES)[number];

/**
 * Which of the landing's files each module goes in, read from a first build that writes
 * nothing: the modules of the chunks each page loads, after tree-shaking. The import graph
 * alone would not do: a module imported for code the landing never runs (a schema behind a
 * barrel file) would be pulled into the first load. Modules the sign-in page loads stay in
 * the automatic chunks, so that page keeps its own few kilobytes and never starts the
 * console's entry.
 */
async function landingFiles(config: UserConfig): Promise<ReadonlyMap<string, LandingFile>> {
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'silent',
    plugins: consolePlugins({ emit: false }),
    build: { ...config.build, write: false, manifest: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item) => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /**
   * The modules a page loads: those of its chunk and of every chunk imported statically, and
   * with `later`, of every chunk it may import on demand too.
   */
  const modulesOf = (page: string, later = false) => {
    const first = chunks.find((chunk) => chunk.facadeModuleId === page);
    if (!first)
      throw new Error(
        `vite.config.ts: ${page} is no chunk of the build; FIRST_LOADS names a module that moved`,
      );
    const modules = new Set<string>();
    const seen = new Set<string>();
    const queue: OutputChunk[] = [first];
    for (let chunk = queue.pop(); chunk; chunk = queue.pop()) {
      if (seen.has(chunk.fileName)) continue;
      seen.add(chunk.fileName);
      for (const module of chunk.moduleIds) modules.add(module);
      for (const file of later ? [...chunk.imports, ...chunk.dynamicImports] : chunk.imports)
        queue.push(byFile.get(file)!);
    }
    return modules;
  };
  const entry = modulesOf(FIRST_LOADS.entry);
  const shell = modulesOf(FIRST_LOADS.shell);
  const devices = modulesOf(FIRST_LOADS.devices);
  const account = modulesOf(FIRST_LOADS.account);
  // Whatever the sign-in page may load, on demand too: importing one of the console's files
  // would start the console there.
  const signIn = modulesOf(FIRST_LOADS.signIn, true);
  const files = new Map<string, LandingFile>();
  for (const module of [...entry, ...shell, ...devices]) {
    if (signIn.has(module)) continue;
    if (entry.has(module)) files.set(module, 'entry');
    else if (shell.has(module)) files.set(module, account.has(module) ? 'ui' : 'shell');
    else files.set(module, 'devices-screen');
  }
  return files;
}

/**
 * The build's chunks beyond Vite's automatic ones. The landing's modules go in one file per
 * step of its load instead of about a hundred shared pieces: each file is compressed on its
 * own, so a hundred small ones lose about 35 KB gzip to lost context, and each costs a
 * request on a slow network. A screen opened later that shares a module with the landing
 * loads that file, which the landing has brought already.
 */
function chunkGroups(landing: ReadonlyMap<string, LandingFile> | undefined): CodeSplittingGroup[] {
  const locales: CodeSplittingGroup = {
    // Each language but English (part of the first load) in one file, fetched when picked.
    name: (id) => {
      const locale = /[\\/]i18n[\\/]locales[\\/]([^\\/]+)[\\/][^\\/]+\.json$/.exec(id)?.[1];
      return locale && locale !== 'en' ? `locale-${locale}` : null;
    },
  };
  if (!landing) return [locales];
  return [
    locales,
    ...LANDING_FILES.map((name, index) => ({
      name,
      test: (id: string) => landing.get(id) === name,
      priority: LANDING_FILES.length - index,
      // Each file holds its own modules only; what they import lives in the files before it.
      includeDependenciesRecursively: false,
    })),
  ];
}

/** The console's plugins; the first build of `landingFiles` writes no file. */
function consolePlugins({ emit }: { emit: boolean }): PluginOption[] {
  return [
    noVncWithoutTopLevelAwait(),
    mantineStylesWithComponents(),
    react(),
    signInPage(),
    ...(emit ? [versionFile(), precompress()] : []),
  ];
}

const backend = process.env.FLEETGATE_BACKEND ?? 'http://localhost:8080';

const consoleConfig = {
  // `#src/lib/...` is apps/web/src/lib/... (tsconfig.json "paths"; vitest.config.ts says the same).
  resolve: { alias: [{ find: /^#src\//, replacement: `${src('src')}/` }] },
  define: { 'import.meta.env.VITE_BUILD_TIMESTAMP': JSON.stringify(String(builtAt)), ...mapTiles },
  build: {
    outDir: 'dist',
    // product §9: static assets under /assets-static/.
    assetsDir: 'assets-static',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // The console, and the sign-in page as a document of its own (src/sign-in/main.ts).
      input: { index: src('index.html'), 'sign-in': src('sign-in.html') },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend },
      '/status': { target: backend, ws: true },
    },
  },
} satisfies UserConfig;

export default defineConfig(async ({ command }) => {
  const landing = command === 'build' ? await landingFiles(consoleConfig) : undefined;
  return {
    ...consoleConfig,
    plugins: consolePlugins({ emit: true }),
    build: {
      ...consoleConfig.build,
      // The list of each entry's files, read by the first-load budget test (src/build-budget.test.ts).
      manifest: true,
      rollupOptions: {
        ...consoleConfig.build.rollupOptions,
        output: { codeSplitting: { groups: chunkGroups(landing) } },
      },
    },
  };
});
