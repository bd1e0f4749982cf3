import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { APP_VERSION } from '@fleetgate/shared/constants';
import { SIGN_IN_PATH } from '@fleetgate/shared/routes';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
 * Mantine's styles travel with the components that use them: the module holding a
 * component's class names imports that component's style sheet (`styles/Button.layer.css`
 * beside `Button.module.mjs`), so a screen's CSS comes in the chunk of its components and
 * the first load carries only the sheets of what it draws, not all 290 KB. main.tsx imports
 * the base sheets. The `.layer.css` variants put Mantine in `@layer mantine`: the console's
 * own styles win over it whatever order the chunks arrive in. The dev server pre-bundles
 * Mantine (no transform reaches it), so there main.tsx gets the whole sheets instead.
 */
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

/** The build's chunks beyond Vite's automatic ones. */
function chunkGroups(id: string): string | null {
  // Each language but English (part of the first load) in one file, fetched when picked.
  const locale = /[\\/]i18n[\\/]locales[\\/]([^\\/]+)[\\/][^\\/]+\.json$/.exec(id)?.[1];
  if (locale && locale !== 'en') return `locale-${locale}`;
  return null;
}

const backend = process.env.FLEETGATE_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [
    noVncWithoutTopLevelAwait(),
    mantineStylesWithComponents(),
    react(),
    signInPage(),
    versionFile(),
    precompress(),
  ],
  // `#src/lib/...` is apps/web/src/lib/... (tsconfig.json "paths"; vitest.config.ts says the same).
  resolve: { alias: [{ find: /^#src\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` }] },
  define: { 'import.meta.env.VITE_BUILD_TIMESTAMP': JSON.stringify(String(builtAt)), ...mapTiles },
  build: {
    outDir: 'dist',
    // product §9: static assets under /assets-static/.
    assetsDir: 'assets-static',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // The list of each entry's files, read by the first-load budget test (src/build-budget.test.ts).
    manifest: true,
    rollupOptions: {
      // The console, and the sign-in page as a document of its own (src/sign-in/main.ts).
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        'sign-in': path.resolve(import.meta.dirname, 'sign-in.html'),
      },
      output: { codeSplitting: { groups: [{ name: chunkGroups }] } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend },
      '/status': { target: backend, ws: true },
    },
  },
});
